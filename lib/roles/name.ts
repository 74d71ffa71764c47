/**
 * Reading a tool's name: its words in every naming style (`get_x`, `getX`, `get-x`, `GetX`,
 * `API-get-x`, `jira_get`, `x.get`, `gitlab_get_issue`), the verb it leads with, and what that verb
 * acts on. Pure string work over the vocabulary in ./lexicon.
 */
import {
  AGENT_NOUNS,
  CONJUNCTIONS,
  EXEC_VERBS,
  HTTP_METHODS,
  NAME_PREFIXES,
  NOUN_LIKE,
  VERB_CLASS,
  type VerbClass,
} from "./lexicon";

/**
 * The words of a name, lower-cased: split on anything but letters and digits, before an upper-case
 * letter that follows a lower-case one or a digit (`getIssue`), and before the last capital of an
 * acronym run that starts a word (`URLFetch` → url, fetch).
 */
export function nameWords(name: string): string[] {
  if (ASCII_NAME.test(name)) return asciiWords(name);
  return name
    .normalize("NFKC")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

// eslint-disable-next-line no-control-regex -- the test is exactly "only ASCII code points"
const ASCII_NAME = /^[\x00-\x7f]*$/;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** `nameWords` for ASCII text in one pass, the same split without the regexes (a review may name 5,000 tools). */
function asciiWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const alnum = isUpper(c) || isLower(c) || isDigit(c);
    if (!alnum) {
      if (start >= 0) words.push(text.slice(start, i).toLowerCase());
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    const prev = text.charCodeAt(i - 1);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    // getIssue → get|Issue; URLFetch → URL|Fetch (before the last capital of a run followed by a lower-case letter).
    if (isUpper(c) && (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next)))) {
      words.push(text.slice(start, i).toLowerCase());
      start = i;
    }
  }
  return words;
}

export type NameVerb = { verb: string; verbClass: VerbClass; index: number };

export type NameReading = {
  /** The name's words after any prefix (`API-`, the server's own name) is dropped. */
  words: string[];
  /** The verb the name leads with, and any joined by a conjunction (`create_or_update`); none when no word is a known verb. */
  verbs: NameVerb[];
  /** The words the verbs act on. */
  objects: string[];
  /** The dropped prefix words. */
  prefix: string[];
  /** True when the name came with an `API-` style prefix, as OpenAPI-generated tools do. */
  generated: boolean;
};

const NO_WORDS: ReadonlySet<string> = new Set();

const verbOf = (word: string): NameVerb | null => {
  const verbClass = VERB_CLASS.get(word);
  return verbClass ? { verb: word, verbClass, index: -1 } : null;
};

/** Words that make a following "list" a noun: `access-list`, `allow_list`, `block_list`. */
export const LIST_COMPOUNDS = new Set(["access", "allow", "block", "deny", "ip"]);
/** Words that make a following "forward" a direction: `go_forward`, `step_forward`. */
export const DIRECTION_LEADS = new Set(["go", "step"]);
/** Prepositions after which an agent noun is a key, not the tool's action (`search_by_sender`). */
const AGENT_AFTER = new Set(["by", "from", "for", "to", "of", "with"]);

/** Verbs that are another part of speech after the words given (see `readName`). */
const NOT_A_VERB_AFTER: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["list", LIST_COMPOUNDS],
  ["forward", DIRECTION_LEADS],
]);

/**
 * Reads a name. `serverWords` are the words of the server's name, dropped from the front of the
 * tool's (`gitlab_get_issue` on a GitLab server). The leading verb is, in order: in a name with
 * an API version inside it (`im_v1_message_create`), the last word when it is a verb at all; the
 * first word when it is a verb that is not also a common noun; the last word when it is such a verb
 * (`jira_get`, `issues.get`, `comment_list`); the first such verb anywhere (`gitlab_get_issue`); the
 * first word that is a verb at all (`post_message`). A name ending in an agent noun
 * (`deploy-services-reader`) is read by that noun's verb alone. `idWords` are words the inputs
 * name by id (`listId`): after the first word, such a word is an object (`archive_list`).
 */
export function readName(
  name: string,
  serverWords: readonly string[] = [],
  idWords: ReadonlySet<string> = NO_WORDS,
): NameReading {
  const all = nameWords(name);
  const skip = new Set(serverWords);
  let start = 0;
  while (
    start < all.length - 1 &&
    (NAME_PREFIXES.has(all[start]!) || skip.has(all[start]!) || /^\d+$/.test(all[start]!))
  )
    start++;
  const prefix = all.slice(0, start);
  // Issue 32, eleventh round: an API version at the end (`DNS_getDNSRecordsV1`) names no object: the
  // name's last noun is before it.
  let end = all.length;
  while (end - start > 1 && /^v\d+$/.test(all[end - 1]!)) end--;
  // Issue 32, thirteenth round (not independent): a "tool" suffix (`category_search_tool`,
  // `static_map_image_tool`) is a naming habit, not the object: the object is the word before it.
  // Not after a verb that runs tools (`execute_sentry_tool`: the tool is what it runs).
  if (
    end - start > 2 &&
    all[end - 1] === "tool" &&
    !all.slice(start, end - 1).some((w) => EXEC_VERBS.has(w))
  )
    end--;
  const words = all.slice(start, end);
  // Issue 32, thirteenth round (not independent): an API version inside the name
  // (`bitable_v1_appTableRecord_search`, `im_v1_message_create`) marks an operation named
  // service_version_resource_method, as OpenAPI generators write it: the last word is the method,
  // even where it is also a noun ("search", "list"), and a noun-like word before it ("record") is
  // the resource.
  const versioned = words.slice(1, -1).some((w) => /^v\d+$/.test(w));
  const generated = prefix.includes("api");

  // "access list", "allow list", "block list": a list of who may connect is a noun, not the verb;
  // "go forward" is a direction in a history, not forwarding a message.
  const isVerb = (i: number) =>
    VERB_CLASS.has(words[i]!) && !(i > 0 && NOT_A_VERB_AFTER.get(words[i]!)?.has(words[i - 1]!));
  // A word the inputs name by id (`archive_list(listId)`) is what the tool acts on, not its verb.
  const isPlainVerb = (i: number) =>
    isVerb(i) && !NOUN_LIKE.has(words[i]!) && !(i > 0 && idWords.has(words[i]!));
  let lead = -1;
  // `deploy-services-reader`: an agent noun at the end is what the tool does, unless a preposition
  // makes it what the object is found by (`search_by_sender`, `search_unread_from_sender`).
  const agent =
    words.length > 1 && !AGENT_AFTER.has(words.at(-2)!)
      ? AGENT_NOUNS.get(words.at(-1)!)
      : undefined;
  const agentClass = agent ? VERB_CLASS.get(agent) : undefined;
  if (agent && agentClass) {
    const index = words.length - 1;
    return {
      words,
      verbs: [{ verb: agent, verbClass: agentClass, index }],
      objects: words.slice(0, index).filter((w) => !CONJUNCTIONS.has(w)),
      prefix,
      generated,
    };
  }
  if (versioned && isVerb(words.length - 1)) lead = words.length - 1;
  else if (words.length > 0 && isPlainVerb(0)) lead = 0;
  else if (words.length > 1 && isPlainVerb(words.length - 1)) lead = words.length - 1;
  else {
    for (let i = 0; i < words.length && lead < 0; i++) if (isPlainVerb(i)) lead = i;
    for (let i = 0; i < words.length && lead < 0; i++) if (isVerb(i)) lead = i;
  }
  const verbs: NameVerb[] = [];
  if (lead >= 0) {
    verbs.push({ ...verbOf(words[lead]!)!, index: lead });
    // A conjunction joins the verbs on either side of it (`upload_and_delete`, `create_or_update`).
    for (let i = 1; i + 1 < words.length; i++) {
      if (!CONJUNCTIONS.has(words[i]!)) continue;
      for (const j of [i - 1, i + 1]) {
        const joined = verbOf(words[j]!);
        if (joined && !verbs.some((v) => v.index === j)) verbs.push({ ...joined, index: j });
      }
    }
  }
  // The leading verb first, then the joined ones in name order.
  verbs.sort((a, b) => (a.index === lead ? -1 : b.index === lead ? 1 : a.index - b.index));
  const verbIndexes = new Set(verbs.map((v) => v.index));
  const objects = words.filter((w, i) => !verbIndexes.has(i) && !CONJUNCTIONS.has(w));
  return { words, verbs, objects, prefix, generated };
}

/** Whether a reading's leading verb is an HTTP method, as in OpenAPI-generated tools. */
export const leadsWithMethod = (reading: NameReading): boolean =>
  reading.verbs.length > 0 && HTTP_METHODS.has(reading.verbs[0]!.verb);

/** Words of a description skipped before its leading verb ("This tool lets you create…"). */
const DESCRIPTION_FILLER = new Set([
  "this",
  "tool",
  "the",
  "a",
  "an",
  "to",
  "use",
  "used",
  "it",
  "will",
  "can",
  "lets",
  "let",
  "allows",
  "allow",
  "you",
  "for",
  "mcp",
  "function",
  "helper",
  "that",
  "which",
  "please",
  "we",
  "i",
  "quickly",
  "easily",
  "simply",
  "also",
  "always",
  "never",
  "must",
  "first",
]);

/** Words after "call" that make it an instruction to the model (`call this first`, `call when…`). */
const INSTRUCTION_FOLLOWERS = new Set([
  "this",
  "it",
  "me",
  "when",
  "before",
  "after",
  "first",
  "whenever",
]);

/** A description word as a verb: as written, else without its "-s"/"-es"/"-ies" ("Retrieves", "Searches", "Queries"). */
export function descriptionVerb(word: string): string | null {
  if (VERB_CLASS.has(word)) return word;
  if (word.endsWith("ies") && VERB_CLASS.has(`${word.slice(0, -3)}y`))
    return `${word.slice(0, -3)}y`;
  if (word.endsWith("es") && VERB_CLASS.has(word.slice(0, -2))) return word.slice(0, -2);
  if (word.endsWith("s") && VERB_CLASS.has(word.slice(0, -1))) return word.slice(0, -1);
  return null;
}

/** The verb a description's first sentence opens with, within its first few words; null when none. */
export function leadingDescriptionVerb(description: string): string | null {
  const firstSentence = description.trim().split(/[.!?\n](?:\s|$)/)[0] ?? "";
  const words = nameWords(firstSentence.slice(0, 200));
  let seen = 0;
  for (const [i, word] of words.entries()) {
    if (DESCRIPTION_FILLER.has(word)) continue;
    // "ALWAYS call this when…" tells the model when to use the tool, not what the tool does.
    if (word === "call" && INSTRUCTION_FOLLOWERS.has(words[i + 1] ?? "")) continue;
    const verb = descriptionVerb(word);
    if (verb) return verb;
    if (++seen >= 3) return null;
  }
  return null;
}
