/**
 * The rule signals' vocabulary beyond English (issue 31): text addressed to an assistant, agent or
 * model, "ignore your previous instructions", "do not tell the user", fake system markers, in
 * German, French, Spanish, Portuguese, Italian, Dutch, Japanese, Chinese and Russian. General words
 * per language, not a benchmark's phrasing: "KI-Assistent", "assistant IA", "asistente de IA",
 * "AIアシスタント", "AI助手", "ИИ-ассистент".
 *
 * Every pattern runs on visible text (NFKC: fullwidth letters and digits are ASCII already),
 * lower-cased. JavaScript's `\b` knows only ASCII letters, so it never matches before "ü" or a
 * Cyrillic letter: words here are bounded by `(?<!\p{L})` and `(?!\p{L})` instead. Japanese and
 * Chinese have no spaces, so their patterns need no boundary and are anchored on a particle or a
 * punctuation mark instead ("…AIアシスタントへ：", "致…AI助手：").
 */

/** Not preceded / not followed by a letter or digit: a word boundary that knows every script. */
export const WB = String.raw`(?<![\p{L}\p{N}_])`;
/** …and not followed by one, nor by a hyphen and a letter ("KI-Assistent-Abo" is a subscription, not an AI). */
export const WE = String.raw`(?![\p{L}\p{N}_]|-\p{L})`;

const alt = (words: string) =>
  words
    .trim()
    .split(/\s*\|\s*/u)
    .map((w) => w.replace(/[.*+?^${}()[\]\\]/gu, "\\$&").replace(/ /gu, "\\s+"))
    .join("|");

/**
 * An alternation with its leading word boundary: `\b` before the words that start with an ASCII
 * letter (V8 runs that several times faster than a lookbehind at every position), the lookbehind
 * before the others ("über…", "игнорируй"). `\b` also matches after a non-ASCII letter, so an
 * ASCII word glued to one ("éagent") counts as a word: rare, and only ever a match, never a miss.
 */
const lead = (words: string) => {
  const all = words.split("|");
  const ascii = all.filter((w) => /^[a-z@]/u.test(w));
  const other = all.filter((w) => !/^[a-z@]/u.test(w));
  return `(?:${[ascii.length ? String.raw`\b(?:${ascii.join("|")})` : "", other.length ? `${WB}(?:${other.join("|")})` : ""].filter(Boolean).join("|")})`;
};

/**
 * An AI, as the languages with spaces name it, in three kinds. Words that can only mean an AI
 * ("KI-Assistent", "assistant IA", "asistente de IA", "ИИ-ассистент", "LLM", "chatbot"); "model",
 * which is also a product's model ("Hinweis für das Modell X200"); and "assistant" or "agent",
 * which are also people (a support agent, a manager's assistant: "Hinweis an den Agenten, der
 * dieses Ticket bearbeitet" is a customer writing to a person). The patterns below say which kinds
 * each accepts. Inflections an address uses are listed ("den KI-Agenten", "для ИИ-ассистента").
 */
const AI_STRICT = alt(`
  ai | a.i. | ai assistant | ai agent | ai model | chatbot | bot | llm | language model | gpt | chatgpt | claude | gemini | copilot |
  ki | ki-assistent | ki-assistentin | ki-assistenten | ki-agent | ki-agenten | ki-modell | ki-modells | ki-system | ki-systeme | ki-systems | ki-tool | ki-bot | sprachmodell | sprachmodells | künstliche intelligenz |
  ia | assistant ia | assistant d'ia | agent ia | agent d'ia | modèle d'ia | modèle de langage | intelligence artificielle |
  asistente de ia | asistente ia | agente de ia | agente ia | modelo de ia | modelo de lenguaje | inteligencia artificial |
  assistente de ia | assistente ia | modelo de linguagem | inteligência artificial |
  assistente di ia | assistente ia | modello di ia | modello linguistico | intelligenza artificiale |
  ai-assistent | ai-assistenten | ai-agent | ai-agenten | ai-model | ai-system | ai-systeem | taalmodel | système d'ia | sistema de ia | sistema di ia | ии-система | ии-системы |
  ии | ии-ассистент | ии-ассистента | ии-ассистенту | ии-ассистентам | ии-агент | ии-агента | ии-агентам | ии-агентов | бот | бота | боту | чат-бот | чат-бота |
  нейросеть | нейросети | языковая модель | языковой модели | искусственный интеллект | искусственного интеллекта
`);
const AI_MODEL = alt(`model | modell | modells | modèle | modelo | modello | модель | модели`);
const AI_PERSONA = alt(`
  assistant | agent | assistent | assistentin | asistente | assistente | agente | ассистент | ассистента | ассистенту | агент | агента | агенту |
  assistant virtuel | virtueller assistent | asistente virtual | assistente virtual | assistente virtuale | virtuele assistent | виртуальный ассистент
`);
/** Any of them (where the pattern itself says the reader is an AI). */
const AI_WORDS = `${AI_STRICT}|${AI_MODEL}|${AI_PERSONA}`;

/** An AI in Japanese and Chinese (no spaces: matched anywhere). */
const AI_CJK = alt(`
  aiアシスタント | aiエージェント | ai | llm | アシスタント | エージェント | 言語モデル | モデル | 人工知能 | チャットボット |
  ai助手 | 人工智能助手 | 智能助手 | 助手 | 智能体 | 大模型 | 语言模型 | 模型 | 人工智能 | 机器人 | 聊天机器人
`);

/** Articles and contractions between a preposition and the AI ("für den", "pour l'", "all'", "para o"). */
const ART = String.raw`(?:(?:all|the|any|alle|allen|tous\s+les|toutes\s+les|todos\s+los|todas\s+las|todos\s+os|tutti\s+gli|всем|den|dem|die|das|der|le|la|les|l'|du|de la|de l'|el|los|las|al|o|a|os|as|ao|à|il|lo|gli|l'|all'|alla|al|de|het|een|un|une|una|um|uma|ein|eine|einen)\s*)?`;

/** A note, message or instructions… for/to the AI ("Hinweis an den KI-Assistenten", "Note pour l'assistant IA"). */
const NOTE_WORDS = alt(`
  note | message | instruction | instructions | notice |
  hinweis | nachricht | anweisung | anweisungen | notiz | mitteilung |
  remarque | consigne | consignes |
  nota | mensaje | instrucción | instrucciones | aviso |
  mensagem | instrução | instruções |
  messaggio | istruzione | istruzioni | avviso |
  opmerking | bericht | instructie | instructies | notitie |
  примечание | сообщение | инструкция | инструкции | указание | указания | заметка | обращение
`);
const TO_FOR = alt(
  `an | für | pour | à | a | para | ao | à | per | all' | al | alla | voor | aan | для | к`,
);

/** Reading, processing, summarising: what the AI a payload speaks to is doing with the text. */
const READS = String.raw`liest|lesen|verarbeitet|zusammenfasst|bearbeitet|auswertet|lit|lisez|traite|résume|analyse|lee|procesa|resume|resuma|analiza|lê|processa|legge|elabora|riassume|analizza|leest|verwerkt|samenvat|читает|прочитает|обрабатывает|пересказывает|анализирует|reads|is\s+reading|processes|summari[sz]es|handles|parses`;

/** Greetings that can open an address ("Liebe KI,", "Cher assistant,", "Уважаемый ИИ-ассистент,"). */
const GREETING = alt(`
  liebe | lieber | liebes | sehr geehrte | sehr geehrter | sehr geehrtes | geehrte | geehrter | geehrtes | hallo | hey | hi | dear | cher | chère | bonjour | querido | querida | estimado | estimada | prezado | prezada | hola | caro | cara | gentile | olá | ciao | beste | geachte | hoi |
  уважаемый | дорогой | привет | здравствуй | внимание | achtung | attention | atención | atenção | attenzione | let op
`);

/** A relative clause after the AI: "…the AI that reads", "l'assistant IA qui traite", "ИИ-ассистента, обрабатывающего". */
const RELATIVE = alt(`
  that | which | who | der | die | das | qui | que | che | dat | den | который | которая | которое | которые | которую | которого
`);

/** "If you are an AI" and "you as an AI" in each language. */
const IF_YOU_ARE = alt(`
  wenn du | falls du | wenn sie | falls sie |
  si tu es | si vous êtes | si eres | si usted es | se você é | se você for | se tu és | se sei | se lei è | als je | als jij | als u |
  если ты | если вы
`);

/** Drop, forget or ignore — the verbs of an override, in each language. */
const OVERRIDE_VERBS = alt(`
  ignoriere | ignorieren sie | ignoriert | vergiss | vergessen sie | missachte | missachten sie |
  ignore | ignorez | ignores | oublie | oubliez | néglige | négligez |
  ignora | ignore | ignoren | olvida | olvide | olviden | omite | descarta |
  ignore | ignora | esqueça | esqueca | desconsidere | desconsidera |
  ignora | ignorate | dimentica | dimenticate | trascura |
  negeer | vergeet |
  игнорируй | игнорируйте | проигнорируй | проигнорируйте | забудь | забудьте | отбрось | отбросьте
`);
/** …what they drop: instructions, rules, guidelines. */
const OVERRIDE_OBJECTS = alt(`
  anweisungen | anweisung | instruktionen | regeln | vorgaben | richtlinien | befehle |
  instructions | consignes | règles | directives |
  instrucciones | reglas | indicaciones | directrices | órdenes |
  instruções | instrucoes | regras | orientações | diretrizes |
  istruzioni | regole | indicazioni | direttive |
  instructies | regels | aanwijzingen | richtlijnen |
  инструкции | инструкций | указания | указаний | правила | правил | команды
`);
/** What makes instructions the reader's standing ones: previous, all, above, system, yours. */
const QUALIFIER = `(?:${lead(
  alt(`vorherig | bisherig | obig | früher | vorangegangen | ursprünglich | sämtlich | précédent | antérieur | ci-dessus | initia |
  anterior | previ | prévi | precedent | sopra | vorige | eerder | voorgaand | предыдущ | прежн | прошл | системн | original`),
)}|${lead(
  alt(
    `all | alle | allen | deine | deinen | ihre | ihren | system | systems | toutes | tous | tes | vos | système | todas | todos | tus | sus | sistema | suas | tuas | tutte | tutti | tue | je | jouw | systeem | все | всех | свои | твои | выше | ti | te | dir | dich | tu | toi`,
  ),
)}${WE})`;
/** The writer's own earlier instructions ("meine vorherigen Anweisungen"): a person withdrawing them. */
const OWN = alt(
  `meine | meinen | mes | mis | mies | mie | miei | minhas | meus | mijn | мои | моих`,
);

/** Keep something from the user. */
const KEEP_FROM_USER = [
  String.raw`(?:sag|sage|erzähl|erzähle|erwähne|informiere|verrate)\s+(?:\p{L}+\s+){0,3}(?:nicht|nichts|niemals)\b|\bohne\s+(?:den|die)\s+(?:nutzer|benutzer|anwender|nutzerin|benutzerin)\s+zu\s+(?:fragen|informieren|benachrichtigen)`,
  String.raw`\bne\s+(?:le\s+|lui\s+|l'|en\s+)?(?:dis|dites|mentionne|mentionnez|signale|signalez|préviens|prévenez)\s+(?:pas|rien|jamais)|\bsans\s+(?:prévenir|informer|avertir|demander\s+à)\s+l'utilisat`,
  String.raw`\bno\s+(?:le\s+|lo\s+)?(?:digas|diga|informes|informe|menciones|mencione|avises|avise|cuentes)\s+(?:nada\s+)?(?:al|a\s+la)\s+usuari|\bsin\s+(?:avisar|informar|preguntar|consultar)\s+(?:al|a\s+la)\s+usuari`,
  String.raw`\bnão\s+(?:conte|diga|informe|mencione|avise)\s+(?:nada\s+)?(?:ao|à|para\s+o)\s+usuári|\bsem\s+(?:avisar|informar|perguntar)\s+(?:o|a)\s+usuári`,
  String.raw`\bnon\s+(?:dirlo|dire|informare|menzionare|avvisare|dirglielo)\s+(?:nulla\s+|niente\s+)?(?:all'|a\s+)utent|\bsenza\s+(?:avvisare|informare|chiedere)\s+(?:l'|all')utent`,
  String.raw`\b(?:vertel|zeg)\s+(?:dit\s+|het\s+)?(?:de|aan\s+de)\s+gebruiker\s+(?:hier\s+)?(?:niets|niks|niet)|\bzonder\s+de\s+gebruiker\s+te`,
  String.raw`${WB}не\s+(?:сообщай|сообщайте|говори|говорите|рассказывай|рассказывайте|упоминай|упоминайте)\s+(?:\p{L}+\s+)?пользовател`,
  String.raw`ユーザー(?:に|には)(?:伝え|知らせ|言わ|教え)ない|(?:不要|别|不得)(?:告诉|通知|提醒)用户`,
].join("|");

/**
 * Act without asking: "ohne Rückfrage", "sans demander de confirmation", "无需确认". What an agent
 * is told so that nobody sees the action before it happens; a person says it too ("bitte ohne
 * Rückfrage freigeben"), so it only supports other signals.
 */
const WITHOUT_ASKING = [
  String.raw`\bwithout\s+(?:asking|confirmation|confirming|approval|telling\s+the\s+user)`,
  String.raw`\bohne\s+(?:rückfrage|nachzufragen|bestätigung|zu\s+fragen|den\s+(?:nutzer|benutzer)\s+zu\s+fragen)`,
  String.raw`\bsans\s+(?:demander|confirmation|attendre\s+de\s+confirmation)`,
  String.raw`\bsin\s+(?:pedir|solicitar|esperar)\s+confirmaci|\bsin\s+confirmaci`,
  String.raw`\bsem\s+(?:pedir|solicitar|esperar)\s+confirmaç|\bsem\s+confirmaç`,
  String.raw`\bsenza\s+(?:chiedere|attendere)\s+conferma|\bsenza\s+conferma`,
  String.raw`\bzonder\s+(?:om\s+)?(?:bevestiging|toestemming)`,
  String.raw`${WB}без\s+(?:подтверждения|запроса\s+подтверждения|согласования)`,
  String.raw`(?:无需|不要|不必|无须)(?:用户)?确认|確認(?:せず|なしで|を求めず)`,
].join("|");

/** "In your answer, include…" / "your answer must…" beyond English. */
const ANSWER_NOUN = "antwort|réponse|respuesta|resposta|risposta|antwoord";
const ANSWER_MODAL = "muss|soll|doit|debe|deve|moet";
const YOUR_ANSWER = [
  // The noun first and what precedes it looked for behind it: "in", "en", "na" are everywhere.
  String.raw`(?:${ANSWER_NOUN})${WE}(?<=(?:\b(?:in|am\s+ende)\s+(?:deiner|ihrer)|\b(?:dans|à\s+la\s+fin\s+de)\s+(?:ta|votre)|\b(?:en|al\s+final\s+de)\s+tu|\b(?:na|em)\s+(?:sua|tua)|\bnella\s+tua|\bin\s+(?:je|jouw|uw))\s+(?:${ANSWER_NOUN}))`,
  String.raw`(?:${ANSWER_MODAL})${WE}(?<=\b(?:deine|ta|votre|tu|sua|tua|la\s+tua|je|jouw)\s+(?:${ANSWER_NOUN})\s+(?:${ANSWER_MODAL}))`,
  String.raw`${WB}в\s+(?:своём|своем|твоём|твоем)\s+ответе${WE}|${WB}(?:твой|свой)\s+ответ\s+должен`,
  String.raw`(?:在|于)(?:你|您)的(?:回复|回答|答复|输出)(?:中|里)`,
  String.raw`(?:あなたの)?(?:回答|返信|応答|出力)(?:の最後)?に[^\n。]{0,40}(?:含め|追加し|加え|記載し)`,
].join("|");

/**
 * A word one of the patterns below cannot match without: an AI, instructions or rules, the user,
 * an answer, "without", "now", "new", in any of the languages. One scan for it lets a text that has
 * none (most English tool results: JSON records, logs, prose about other things) skip the rest.
 * Looser than the patterns on purpose (no trailing boundary, stems): it may let a text through,
 * never keep a match out. The tests run every pattern through it.
 */
const GATE_AI = String.raw`${lead(AI_WORDS)}(?![a-z0-9_])`;
const GATE_OBJECTS = lead(OVERRIDE_OBJECTS);
const GATE_WORDS = String.raw`\b(?:nicht|nichts|niemals|nutzer|benutzer|anwender|pas|rien|jamais|without|ohne|sans|sin|sem|senza|zonder|bist|sind|es|eres|sei|bent|neue|nouvelles|nuevas|novas|nuove|nieuwe)\b`;
// Words the gate finds anywhere (no boundary): plain text, no regex syntax.
const GATE_CJK = AI_CJK.split("|")
  .filter((w) => !/[a-z]/u.test(w))
  .join("|");
const GATE_USER_NOW_NEW =
  "utilisat|usuári|usuari|utent|gebruiker|пользовател|ユーザー|用户|без|确认|確認|você|é|теперь|отныне|ты|новые|你现在|从现在|あなたは|新|指示|命令|ルール|指令|設定|说明|规则|设定|无视|忽略|忘记|忘掉|理会|無視|忘れ";
const GATE_ANSWER =
  "antwort|réponse|respuesta|resposta|risposta|antwoord|ответ|回复|回答|答复|输出|返信|応答|出力";
const GATE_LITERALS = [GATE_CJK, GATE_USER_NOW_NEW, GATE_ANSWER].join("|").split("|");
/**
 * A character beyond ASCII: a code unit from U+0080 on (every such character has one). Without
 * the u flag, which makes V8 decode every position as a code point (several times slower).
 */
const BEYOND_ASCII = /[\u0080-\uffff]/;
const isAscii = (w: string) => !BEYOND_ASCII.test(w);

/**
 * A word one of the patterns below cannot match without: an AI, instructions or rules, the user,
 * an answer, "without", "now", "new", in any of the languages. One scan for it lets a text that has
 * none (most English tool results: JSON records, logs, prose about other things) skip the rest.
 * Looser than the patterns on purpose (no trailing boundary, stems): it may let a text through,
 * never keep a match out. The tests run every pattern through it.
 */
export const ELSEWHERE_GATE_PATTERN = new RegExp(
  [
    // "ai" glued to Japanese or Chinese ("aiアシスタント", "给ai的指令") still has a boundary before it.
    GATE_AI,
    GATE_CJK,
    GATE_OBJECTS,
    GATE_WORDS,
    GATE_USER_NOW_NEW,
    GATE_ANSWER,
  ].join("|"),
  "u",
);

/**
 * ELSEWHERE_GATE_PATTERN tested a part at a time: the pattern is an alternation, so it matches
 * exactly when one of its parts does. Apart, V8 scans each far faster (one regex of all of them
 * tried every alternative at every position: 0.13 ms on 10 kB of relay prose, against a few µs
 * for the part that matches first there), and the words beyond ASCII are looked for only in a
 * text with a character beyond ASCII. Cheapest and likeliest first.
 */
const GATE_PARTS: ((lower: string) => boolean)[] = (() => {
  const words = new RegExp(GATE_WORDS, "u");
  const ascii = new RegExp(GATE_LITERALS.filter(isAscii).join("|"), "u");
  const beyondAscii = new RegExp(GATE_LITERALS.filter((w) => !isAscii(w)).join("|"), "u");
  const ai = new RegExp(GATE_AI, "u");
  const objects = new RegExp(GATE_OBJECTS, "u");
  return [
    (t) => words.test(t),
    (t) => ascii.test(t),
    (t) => BEYOND_ASCII.test(t) && beyondAscii.test(t),
    (t) => ai.test(t),
    (t) => objects.test(t),
  ];
})();
export const ELSEWHERE_GATE = {
  test: (lower: string): boolean => GATE_PARTS.some((part) => part(lower)),
};

/** "Must" and "shall" in the third person, for "the AI must from now on…". */
const MODALS = "muss|soll|doit|devra|debe|deberá|deve|deverá|moet|должен|должна";

/**
 * Phrases that speak to an AI beyond English, in the shape of signals.ts's ADDRESSED: the pattern,
 * what it says, and whether it only *addresses* the reader as an AI (skipped in text written for
 * the model on purpose).
 */
/**
 * The gate of the Japanese and Chinese addresses below: each of their forms holds a character from
 * U+3000 on (a particle, a kana or hanzi word, a full-width colon or comma), except a line opening
 * with "ai" or "llm" and an ASCII comma ("AI, …"), which holds "ai," or "llm,". A text with none of
 * these (most text: relay prose has no such character) skips that pattern's scan.
 */
const CJK_GATE = {
  test: (lower: string): boolean =>
    // Without the u flag (a code unit from U+3000 on: the characters named are all in the BMP),
    // and the class apart from the words: together, or with the flag, V8 took ten times longer.
    (/[\u3000-\uffff]/.test(lower) || /ai,|llm,/.test(lower)) && ELSEWHERE_GATE.test(lower),
};

const ADDRESSED_ENTRIES: [RegExp, string, boolean, number?, { test(text: string): boolean }?][] = [
  [
    new RegExp(
      [
        // "Hinweis an den KI-Assistenten", "Note pour l'assistant IA", "Инструкции для агента".
        String.raw`${lead(NOTE_WORDS)}\s+(?:${TO_FOR})\s*${ART}(?:${AI_STRICT})${WE}`,
        // A line for the AI: "An alle KI-Agenten:", "Для ИИ:", "Pour l'IA :".
        String.raw`(?:^|\n)[ \t]*(?:${TO_FOR})\s*${ART}(?:${AI_STRICT})${WE}\s*[:：]`,
        // "An das Sprachmodell, das diese Seite liest", "Para la IA que resuma", "All'IA che riassume", "Для нейросети, которая".
        // Not "the agent who handles this ticket": a support agent is a person.
        String.raw`(?:^|[\n.!?:]\s*)(?:${TO_FOR}|à\s+l'(?:attention|intention)\s+(?:du|de\s+la|de\s+l'|des))\s*${ART}(?:${AI_STRICT}|${AI_MODEL})${WE}\s*,?\s*(?:${RELATIVE})${WE}`,
        String.raw`${WB}à\s+l'(?:attention|intention)\s+(?:du|de\s+la|de\s+l'|des)\s*(?:${AI_STRICT})${WE}`,
        // A word that can only mean an AI opening a line or an element, then a colon: "Asistente de IA: …".
        String.raw`(?:^|[\n.!?>]\s*)(?:(?:${GREETING})\s+)?(?:${AI_STRICT})${WE}\s*[:：]`,
        // "ИИ-агент, который читает этот issue", "the model that summarises this page".
        String.raw`${lead(`${AI_STRICT}|${AI_MODEL}`)}${WE}\s*,?\s*(?:${RELATIVE})${WE}\s+(?:\p{L}+\s+){0,3}?(?:${READS})`,
        // A greeting or a line that opens with the AI and a comma: "Liebe KI,", "@Assistent", "Ассистент, с этого момента".
        String.raw`(?:^|\n)[ \t]*(?:\[[^\]\n]{1,24}\][ \t]*)?(?:[\p{L}\p{N}_.*-]{1,24}[ \t]*:[ \t]*)?(?:(?:${GREETING})\s+)?@?(?:${AI_STRICT}|${AI_PERSONA})${WE}[ \t]*(?:,[ \t]+(?=\p{L})|，)`,
        String.raw`(?:^|[\n.!?]\s*)(?:(?:${GREETING}),?\s+)(?:${AI_STRICT}|${AI_PERSONA})${WE}\s*[,:]`,
      ].join("|"),
      "u",
    ),
    'a sentence addressed to an AI ("Hinweis an den KI-Assistenten", "Note pour l\'assistant IA", "Инструкции для агента")',
    true,
  ],
  [
    new RegExp(
      [
        // A note to a model or an "agent"/"assistant" ("Instrucciones para el agente:"): a customer
        // also writes "Hinweis an den Agenten: bitte rufen Sie mich zurück" to a person.
        String.raw`${lead(NOTE_WORDS)}\s+(?:${TO_FOR})\s*${ART}(?:${AI_MODEL}|${AI_PERSONA})\s*[:：]`,
        // A mention ("@Assistent"), not a mail address ("support@ai.example"); chat-ops also mentions bots.
        String.raw`@(?<![\p{L}\p{N}_.+-]@)(?:${AI_STRICT}|${AI_PERSONA})(?![\p{L}\p{N}_.@-])`,
      ].join("|"),
      "u",
    ),
    'a note to an "agent", "assistant" or "model", or a mention of one (which may be a person, so it only supports other signals)',
    true,
    0.4,
  ],
  [
    new RegExp(
      [
        // "致处理此工单的AI助手：", "给智能体的指令：", "このメールを要約するAIへ：", "エージェントへの指示：", "アシスタント、".
        String.raw`(?:致|给)[^\n。！？]{0,24}(?:${AI_CJK})(?:的(?:指令|指示|消息|说明|提示))?\s*[：:，,]`,
        String.raw`(?:${AI_CJK})(?:の(?:皆さん|皆様|方))?(?:へ|に告ぐ|宛て?|への(?:指示|メッセージ|命令|注意))\s*[：:、,]`,
        String.raw`(?:${AI_CJK})(?:请注意|注意|请听好)\s*[：:，,]`,
        String.raw`(?:^|\n)[ \t]*(?:[^\n:：]{1,12}[:：][ \t]*)?(?:${AI_CJK})[、，,]`,
      ].join("|"),
      "u",
    ),
    'a sentence addressed to an AI ("…AIアシスタントへ：", "致…AI助手：")',
    true,
    undefined,
    CJK_GATE,
  ],
  [
    new RegExp(
      [
        String.raw`${lead(IF_YOU_ARE)}\s+(?:(?:ein|eine|einen|un|une|una|um|uma|een|an?)\s+)?(?:\p{L}+\s+){0,2}(?:${AI_STRICT}|${AI_MODEL})${WE}`,
        String.raw`${lead("du|tu|toi|tú|você|jij|je|ты")}\s+(?:als|en\s+tant\s+qu'|como|come|als\s+een)\s*(?:${AI_WORDS})${WE}`,
        // "Als Assistent führst du…", "En tant qu'IA, tu…", "Как ИИ, ты…".
        String.raw`(?:^|[\n.!?:]\s*)(?:als|en\s+tant\s+qu'|como|come|как)\s*(?:(?:ein|eine|un|une|una|um|uma|een)\s+)?(?:${AI_WORDS})${WE}\s*,?\s+(?:\p{L}+\s+){0,2}(?:du|tu|tú|você|jij|je|ты)${WE}`,
        String.raw`(?:如果|假如|若)(?:你|您)是[^\n。]{0,30}(?:${AI_CJK})|(?:もし)?あなたが[^\n。]{0,30}(?:${AI_CJK})(?:であれば|なら|ならば|の場合)`,
      ].join("|"),
      "u",
    ),
    'speaks to the reader as an AI ("wenn du eine KI bist", "si tu es un modèle d\'IA", "如果你是…AI")',
    true,
  ],
  [
    new RegExp(
      [
        // With a word that makes them the reader's standing instructions ("alle vorherigen",
        // "les consignes précédentes", "le regole che ti hanno dato"), before or just after: "Bitte
        // ignorieren Sie die Anweisungen aus der Phishing-Mail" is a warning to people.
        // The verb is matched once for both orders (V8 tried it twice at every position): the same
        // matches as two alternatives each opening with it, since at any position at most one
        // verb ends at a word boundary (where one verb begins another, the longer one goes on
        // with letters).
        String.raw`${lead(OVERRIDE_VERBS)}${WE}(?!\s+(?:${OWN})${WE})(?:[^\n.!?]{0,40}?${QUALIFIER}[^\n.!?]{0,30}?${lead(OVERRIDE_OBJECTS)}${WE}|[^\n.!?]{0,40}?${lead(OVERRIDE_OBJECTS)}${WE}[^\n.!?]{0,25}?${QUALIFIER})`,
        String.raw`(?:以前|これまで|今まで|前|上記|先|最初)の(?:すべての|全ての)?(?:指示|命令|ルール|指令|設定)(?:は|を)(?:すべて|全て)?(?:無視|忘れ)`,
        String.raw`(?:忽略|无视|忘记|忘掉|不要理会|不理会)[^\n。]{0,10}(?:之前|以上|先前|上面|前面|此前|原有|所有|全部)[^\n。]{0,6}(?:指令|指示|说明|规则|设定)`,
      ].join("|"),
      "u",
    ),
    "tells the reader to drop its instructions (in another language)",
    false,
  ],
  [
    new RegExp(KEEP_FROM_USER, "u"),
    'asks to keep something from the user ("erwähne das nicht", "不要告诉用户")',
    false,
  ],
  [
    new RegExp(WITHOUT_ASKING, "u"),
    'asks to act without asking anyone ("ohne Rückfrage", "sin pedir confirmación")',
    false,
    0.3,
  ],
  [
    new RegExp(YOUR_ANSWER, "u"),
    'instructs how the reader should write its reply ("in deiner Antwort", "dans ta réponse")',
    true,
  ],
  [
    new RegExp(
      [
        String.raw`\b(?:du\s+bist|sie\s+sind)\s+(?:jetzt|ab\s+sofort|nun|von\s+nun\s+an)\s+(?:ein|eine|im|der|die|das)${WE}`,
        String.raw`\btu\s+es\s+(?:désormais|maintenant|dorénavant)\s+(?:un|une|en|le|la)${WE}`,
        String.raw`\b(?:ahora|a\s+partir\s+de\s+ahora)\s+eres${WE}|\b(?:agora|a\s+partir\s+de\s+agora)\s+você\s+é${WE}`,
        String.raw`\b(?:ora|adesso|da\s+ora)\s+sei\s+(?:un|una|in)${WE}|\bje\s+bent\s+nu\s+(?:een|in)${WE}`,
        String.raw`${WB}(?:теперь|отныне)\s+ты${WE}|${WB}ты\s+теперь${WE}`,
        // The AI told how to behave from now on, in the third person ("L'IA doit désormais…").
        // The modal first and the AI looked for behind it: English text has few of these modals.
        String.raw`${lead(MODALS)}${WE}(?<=${lead(AI_WORDS)}${WE}\s+(?:${MODALS}))\s+(?:ab\s+sofort|ab\s+jetzt|von\s+nun\s+an|désormais|dorénavant|à\s+partir\s+de\s+maintenant|a\s+partir\s+de\s+ahora|de\s+ahora\s+en\s+adelante|a\s+partir\s+de\s+agora|d'ora\s+in\s+poi|da\s+ora\s+in\s+poi|vanaf\s+nu|отныне|теперь|с\s+этого\s+момента)${WE}`,
        String.raw`(?:你现在是|从现在起你是|从现在开始你是)|あなたは(?:今|これ)から[^\n。]{0,20}(?:です|だ|として)`,
        String.raw`\b(?:neue|nouvelles|nuevas|novas|nuove|nieuwe|новые)\s+(?:anweisungen|anweisung|instructions|instrucciones|instruções|istruzioni|instructies|инструкции)\s*:|(?:新しい指示|新指令|新的指令|新指示)\s*[：:]`,
      ].join("|"),
      "u",
    ),
    "claims to change who the reader is or what it was told (in another language)",
    false,
  ],
];

/**
 * The entries with the gate each needs ([pattern, what it says, only addresses, strength, gate]):
 * signals.ts runs a pattern only when its gate matches, and tests the gate once per text.
 */
export const ADDRESSED_ELSEWHERE: [
  RegExp,
  string,
  boolean,
  number | undefined,
  typeof ELSEWHERE_GATE,
][] = ADDRESSED_ENTRIES.map(([re, detail, addressing, strength, gate]) => [
  re,
  detail,
  addressing,
  strength,
  gate ?? ELSEWHERE_GATE,
]);

/** System, admin or assistant in each language, for a bracketed marker ("[SYSTEM]", "【システム】", "[СИСТЕМА]"). */
const SYSTEM_WORDS = alt(`
  system | systeme | système | sistema | systeem | admin | administrator | administrateur | administrador | amministratore | beheerder |
  система | администратор | システム | 管理者 | 系统 | 系統 | 管理员
`);
/** "Systemanweisung:", "Instrucción del sistema:", "システム指示：": a system instruction or prompt, not a notice. */
const SYSTEM_INSTRUCTION = alt(`
  systemanweisung | systemanweisungen | systemprompt | systembefehl |
  instruction système | instructions système | instruction du système | instructions du système | consigne système | prompt système |
  instrucción del sistema | instrucciones del sistema | prompt del sistema |
  instrução do sistema | instruções do sistema | prompt do sistema |
  istruzione di sistema | istruzioni di sistema | prompt di sistema |
  systeeminstructie | systeeminstructies | systeemprompt |
  системная инструкция | системные инструкции | системный промпт | системная команда
`);

/** Fake role or system markers beyond English, in the shape of signals.ts's ROLE. Run on lower-cased text. */
export const ROLE_ELSEWHERE: [RegExp, string, number][] = [
  [
    new RegExp(
      String.raw`(?:^|\n)[ \t]*[[(【［〔]\s*(?:${SYSTEM_WORDS})\s*(?:message|nachricht|hinweis|mensaje|mensagem|messaggio|bericht|сообщение|消息|メッセージ)?\s*[\])】］〕]`,
      "u",
    ),
    'a bracketed role marker ("[SISTEMA]", "【システム】", "[СИСТЕМА]")',
    0.5,
  ],
  [
    new RegExp(
      String.raw`(?:^|\n)[ \t]*(?:#{1,4}\s*)?(?:(?:${SYSTEM_INSTRUCTION})${WE}|システム(?:指示|プロンプト|命令)|系统(?:指令|提示词|提示|命令))\s*[:：]`,
      "u",
    ),
    'a line posing as a system instruction ("Systemanweisung:", "Instrucción del sistema:", "系统指令：")',
    0.6,
  ],
];

/**
 * A chat line: an optional time or bracket, a speaker's name ("mara:", "*tom* 9:01 AM:",
 * "[09:14] lea:"), then what they said.
 */
const CHAT_LINE =
  /^[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*)?\*?([\p{L}][\p{L}\p{N}_.-]{0,20}(?: [\p{L}][\p{L}\p{N}_.-]{0,20})?)\*?[ \t]*(?:\d{1,2}:\d{2}(?:[ \t]*[ap]m)?)?[ \t]*[:：][ \t]*(\S.*)$/imu;

/** "Must", "should", "has to": an obligation is an instruction, whoever it is about. */
const OBLIGATION = new RegExp(
  String.raw`${lead(
    alt(
      `must | should | shall | has to | have to | muss | müssen | soll | sollen | doit | doivent | devra | debe | deben | deberá | deve | devem | deverá | devono | moet | moeten | должен | должна | должно | должны`,
    ),
  )}${WE}|必须|务必|应该|しなければ|すること|せよ`,
  "u",
);
/** An address or a link in a window: a request that sends something somewhere is not small talk. */
const DESTINATION = /[\w.+-]+@[\w-]+\.[\w.-]+|https?:\/\/|www\./u;
/** A statement whose subject is an AI ("The AI assistant ignores…", "El asistente de IA no responde"). */
const ABOUT_AN_AI = new RegExp(
  String.raw`^(?:[^\n:：]{2,40}[:：]\s*)?(?:(?:the|our|this|der|die|das|unser|unsere|le|la|l'|notre|ce|cet|cette|el|nuestro|nuestra|este|esta|o|a|nosso|nossa|este|esta|il|lo|il\s+nostro|la\s+nostra|de|het|onze|ons|наш|наша)\s*)?(?:${AI_STRICT}|${AI_MODEL}|${AI_PERSONA})(?:\s+(?:${AI_STRICT}))?${WE}(?!\s*[,:：，])`,
  "u",
);

/** An "agent", "assistant" or "bot" as a speaker's label. */
const SPEAKER_ROLE = new RegExp(
  String.raw`^(?:${AI_PERSONA}|bot|support|supporto|soporte|suporte)$`,
  "u",
);

/**
 * Why the model's best window is people talking rather than a payload, or null: a question one
 * person asks another in a chat of two or more speakers ("diego: ¿me pasas el informe?"), or a
 * statement about an AI product ("Asunto: El asistente de IA no responde"). The model reads a
 * request and an AI named; what it cannot see is who speaks to whom. Neither applies when the
 * window asks for something to be sent somewhere (an address, a link) or states an obligation.
 * The rule signals are judged as always: only the model's weight changes.
 */
export function peopleTalk(visible: string, window: string): string | null {
  const w = window.toLowerCase();
  if (DESTINATION.test(w) || OBLIGATION.test(w)) return null;
  if (ABOUT_AN_AI.test(w)) return "a statement about an AI, not to one";
  // The support side of a transcript ("Assistente: Mi dispiace!"): a person, or a bot, answering a customer.
  const label = CHAT_LINE.exec(w)?.[1];
  if (label && SPEAKER_ROLE.test(label) && isTranscript(visible.toLowerCase()))
    return "the support side speaking in a transcript";
  if (!/[?？]/u.test(w)) return null;
  const speakers = new Set<string>();
  let chatLines = 0;
  let lines = 0;
  for (const line of visible.split("\n", 200)) {
    if (line.trim() === "") continue;
    lines++;
    const m = CHAT_LINE.exec(line);
    if (!m) continue;
    chatLines++;
    speakers.add(m[1]!.toLowerCase());
  }
  const speaking = CHAT_LINE.exec(window);
  if (speakers.size >= 2 && chatLines >= 3 && chatLines * 2 >= lines && speaking)
    return "a question between people in a chat";
  return null;
}

/** Mail headers and record fields: a line "Subject: …" or "Status: …" is no one speaking. */
const FIELD_LABEL = new RegExp(
  `^(?:${alt(`from | to | cc | bcc | subject | date | sent | re | fwd | ticket | id | status | priority | note | summary | description | title | url | link | von | an | betreff | datum | beschreibung | de | à | objet | asunto | para | assunto | oggetto | da | a | onderwerp | aan | van | от | кому | тема | описание | 件名 | 差出人 | 宛先 | 主题 | 发件人 | 收件人 | 描述 | 説明`)})$`,
  "u",
);

/**
 * Whether the colon ending just before `end` closes a speaker's label in a transcript ("Agent:",
 * "Asistente:" at the start of a line, in a text where at least three lines, half of them or more,
 * are people speaking, with at least two speakers): a support chat pasted into a ticket, where the
 * agent is a person. `text` is lower-cased.
 */
export function transcriptSpeaker(text: string, end: number): boolean {
  if (text[end - 1] !== ":" && text[end - 1] !== "：") return false;
  const lineStart = text.lastIndexOf("\n", end - 1) + 1;
  const line = text.slice(
    lineStart,
    text.indexOf("\n", end) < 0 ? undefined : text.indexOf("\n", end),
  );
  const own = CHAT_LINE.exec(line);
  if (!own || lineStart + line.indexOf(":") + 1 !== end) return false;
  return isTranscript(text);
}

/** Three or more lines, half the text or more, are people speaking, with two speakers or more. */
function isTranscript(text: string): boolean {
  const speakers = new Set<string>();
  let chatLines = 0;
  let lines = 0;
  for (const l of text.split("\n", 200)) {
    if (l.trim() === "") continue;
    lines++;
    const m = CHAT_LINE.exec(l);
    if (!m || FIELD_LABEL.test(m[1]!.replace(/^\*+|\*+$/gu, ""))) continue;
    chatLines++;
    speakers.add(m[1]!);
  }
  return speakers.size >= 2 && chatLines >= 3 && chatLines * 2 >= lines;
}

/**
 * Words that introduce a phrase as an example rather than say it: "Sätze wie: Ignoriere…", "the
 * string Ignore previous instructions", "des phrases comme …", "фразы вроде …", "「…」のような".
 * A security newsletter or a test report quotes attacks without quotation marks.
 */
const MENTION = new RegExp(
  String.raw`(?:such\s+as|like|e\.g\.|for\s+example|the\s+(?:string|phrase|sentence|text|line|prompt|payload)|(?:sätze|satz|formulierungen|zeilen)\s+wie|wie\s+z\.\s?b\.|den\s+satz|die\s+zeile|(?:phrases?|formules?)\s+(?:comme|du\s+type)|la\s+phrase|par\s+exemple|(?:frases?|textos?)\s+como|la\s+frase|por\s+ejemplo|por\s+exemplo|(?:frasi|frase)\s+come|ad\s+esempio|per\s+esempio|(?:zinnen|zin)\s+(?:als|zoals)|zoals|de\s+zin|bijvoorbeeld|(?:фразы?|строки?|тексты?)\s+(?:вроде|типа|наподобие)|вроде|например|фраза|такие\s+как|例えば|比如|例如|诸如|像是)\s*[:：]?\s*$`,
  "u",
);

/** Whether the words at `at` are introduced as an example (see MENTION). `text` is lower-cased. */
export function mentioned(text: string, at: number): boolean {
  return MENTION.test(text.slice(Math.max(0, at - 40), at));
}
