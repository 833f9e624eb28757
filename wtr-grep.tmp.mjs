import base from './web-test-runner.config.mjs';
export default { ...base, testsFinishTimeout: 60_000, testFramework: { config: { ...base.testFramework.config, grep: process.env.GREP } } };
