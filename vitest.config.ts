import { defineConfig } from "vitest/config";

// In CI a JSON report is written as well, so .ci/run can print the plain "N passed, N failed"
// line the CI reads (vitest's own summary is not one it recognises).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // The AWS SDK warns on every Node below 22 that its releases after January 2027 will need it;
    // the SDK here is pinned, so the warning says nothing about these tests.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: process.env.CI ? { json: ".ci-results/vitest.json" } : undefined,
  },
});
