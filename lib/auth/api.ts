/** Request shape of POST /api/auth/sign-in, shared by the route and the sign-in page. */
import { z } from "zod";

export const SignInRequestSchema = z
  .object({ token: z.string().min(1, "must not be empty").max(1000) })
  .strict();
export type SignInRequest = z.infer<typeof SignInRequestSchema>;
