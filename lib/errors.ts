/**
 * One application error for transport: a code, an internal `message` for logs, and a
 * `userMessage` safe to show. Expected outcomes inside the domain are returned as values;
 * AppError is for what a route handler turns into an HTTP status.
 */
import { z } from "zod";

export const APP_ERROR_CODES = [
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "LIMIT_EXCEEDED",
  "UNPROCESSABLE",
  "UPSTREAM_FAILED",
  "INTERNAL",
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export const HTTP_STATUS_BY_CODE: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  LIMIT_EXCEEDED: 422,
  /** Well-formed, and refused on its meaning: an approval that leaves critical or high findings unaccepted. */
  UNPROCESSABLE: 422,
  UPSTREAM_FAILED: 502,
  INTERNAL: 500,
};

/** One problem with a request field: `path` is the dotted path of the bad field. */
export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

export const AppErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(APP_ERROR_CODES),
    message: z.string(),
    issues: z.array(FieldIssueSchema).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type AppErrorBody = z.infer<typeof AppErrorBodySchema>;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly userMessage: string;
  readonly issues: FieldIssue[] | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: AppErrorCode,
    userMessage: string,
    options: {
      message?: string;
      issues?: FieldIssue[];
      details?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(options.message ?? userMessage, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = userMessage;
    this.issues = options.issues;
    this.details = options.details;
  }

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  toBody(): AppErrorBody {
    return {
      error: {
        code: this.code,
        message: this.userMessage,
        ...(this.issues ? { issues: this.issues } : {}),
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/** Dotted path of a zod issue, `(root)` for the document itself: `servers.0.transport.url`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(root)" : path.map(String).join(".");
}

export function fieldIssuesFromZod(issues: readonly z.core.$ZodIssue[], prefix = ""): FieldIssue[] {
  return issues.map((i) => ({ path: prefix + issuePath(i.path), message: i.message }));
}

/** 400 naming the path of each bad field. */
export function badRequestFromZod(error: z.ZodError, what = "request body", prefix = ""): AppError {
  const issues = fieldIssuesFromZod(error.issues, prefix);
  return new AppError(
    "BAD_REQUEST",
    `invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
    { issues },
  );
}

/** 404 for a review id that names no stored review (every route and workbench function says it the same way). */
export function reviewNotFound(id: string): AppError {
  return new AppError("NOT_FOUND", `no review with id ${JSON.stringify(id)}`);
}
