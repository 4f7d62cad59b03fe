// `npm run test:quick`: the inner loop. The same run as `npm test` (.mocharc.json) with the property run counts
// scaled down (OPENCODE_PROPERTY_RUNS_SCALE, set by the script) and without the suites whose time is spent in
// real waits or child processes rather than in checks; `npm test` (and CI) runs them all.
// Measured 2026-12-02 on the 2-core machine, quiet: 27.0 s and 28.0 s wall (1,060 tests).
module.exports = {
  ...require('./.mocharc.json'),
  ignore: [
    'out/test/replay.test.js', // the replay CLI as child processes
    'out/test/fakeServerCli.test.js', // the fake server CLI as a child process
    'out/test/routes.faults.test.js', // real 1 s idle timeouts per route
    'out/test/faults.stream.test.js', // real 1 s idle timeouts
    'out/test/streamRules.idle.routes.test.js', // real 1 s idle timeouts, two per route
    'out/test/answer.waits.http.test.js', // real 1 s idle timeouts and the 2 s wait after a finish reason, per route
  ],
};
