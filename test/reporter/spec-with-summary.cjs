// Mocha's spec reporter, plus one plain closing line ("N passed, N failed, N skipped")
// that CI systems can read without knowing mocha.
const Mocha = require("mocha");

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats;
      process.stdout.write(`\ntests: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped\n`);
    });
  }
}

module.exports = SpecWithSummary;
