import { defineConfig } from "vitest/config";

// In CI a JSON report is written as well, so .ci/run can print the plain "N passed, N failed"
// line the CI reads (vitest's own summary is not one it recognises).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: process.env.CI ? { json: ".ci-results/vitest.json" } : undefined,
  },
});
