/**
 * The longest a run of any of the service's workflows lives (docs/tests.md, "Releases"): a longer wait, and an
 * activity retried that long, continue as new instead, in a run that starts on the code deployed then. So no
 * run of a release's code outlives the next release's deploy by more than this, and a patch retired
 * (`deprecatePatch`) after a release that lasted this long meets no run that still needs its old branch.
 */
export const RUN_LIMIT_MS = 7 * 86_400_000;
