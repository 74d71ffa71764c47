/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite resolves its wasm with new URL(..., import.meta.url); bundling breaks that under webpack.
  // pg-boss is CommonJS that requires pg at run time: load it from node_modules as it ships.
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss"],
  poweredByHeader: false,
  // scripts/test-all.sh type-checks the whole repository (tests included) just before it builds,
  // and says so with this variable; every other build checks the types itself.
  typescript: { ignoreBuildErrors: process.env.RELAY_REVIEW_BUILD_TYPECHECKED === "1" },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
    ];
  },
};
export default nextConfig;
