# Sourced by Scripts/test and Scripts/check-sanitizers, so both run the same targets the same way
# (a target added to one list and not the other went untested under the sanitizers once).
#
# Each test target runs in its own `swift test` process. Suites that measure the whole process (open
# descriptors, threads) run alone, in a process of their own: in parallel with their target's other
# suites they count those suites' sockets too. So does the run-interruption suite, whose stops are
# timed: beside it, GalleryKitTests starts the RADOS Gateway and makes ImageMagick copies, both CPUs
# for 10-30 s, and its runs missed their 15 s wait for the first photos.
test_targets=(TestRunnerTests GallerySyncTests GallerySystemTests DatasetFormatsTests GalleryImagingTests GalleryKitTests GalleryDemoTests GalleryServeTests GalleryTransferTests GalleryObjectStoreTests CLITests BrowserTests GalleryPublicAPITests)
# Each in a process of its own: two alone in one process counted each other's descriptors and threads. The
# resolver's engine suite times its tries (a dead resolver must fail in seconds): beside the rest of its target
# its timers waited behind other suites' work on the cooperative threads (10.0 s against 2.5 s, once). The
# recursive resolver's suite times its tries too (dead roots and a dead authority fail in seconds).
alone_suites=("GalleryTransferTests\\.SupportFaultServerLifecycleTests" "GalleryKitTests\\.PipelineInterruptTests" "GalleryTransferTests\\.ResolverEngineTests" "GalleryTransferTests\\.RecursiveResolverTests")
alone=$(IFS='|'; echo "${alone_suites[*]}")
# The Slurm suite starts a one-node cluster and runs shards on both CPUs: a step of its own, after the rest.
cluster="CLITests\\.SlurmShardTests"
# The Ray and Spark launchers' suite starts each engine in local mode on both CPUs: a step of its own too.
engines="CLITests\\.EngineLaunchTests"

# The steps of a run, one `swift test` process each, in order: a line per step, "label TAB filter TAB
# skip" (skip empty for none). Scripts/test and Scripts/check-sanitizers both run these.
test_steps() {
  local target suite
  for target in "${test_targets[@]}"; do printf '%s\t%s\t%s\n' "$target" "^$target\\." "^($alone|$cluster|$engines)/"; done
  for suite in "${alone_suites[@]}"; do printf '%s\t%s\t\n' "${suite//\\/} (alone)" "^$suite/"; done
  printf '%s\t%s\t\n' "${cluster//\\/} (alone: a one-node Slurm cluster)" "^$cluster/"
  printf '%s\t%s\t\n' "${engines//\\/} (alone: Ray and Spark in local mode)" "^$engines/"
}
# Both build GalleryImaging and GalleryDemo with -O although the builds are debug ones (Package.swift
# reads this): the demo server renders its photographs in them, ~40x slower unoptimised.
export FETCH_GALLERY_OPTIMIZE_IMAGING=1
