"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { z } from "zod";
import { getQueryClient } from "@/app/get-query-client";

// zod compiles object parsers with `new Function` when it may, probing that with Function(""):
// under our CSP (no 'unsafe-eval') that probe is a violation. Interpreted parsing is enough here.
z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
