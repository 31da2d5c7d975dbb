import Foundation
import StoryKit
import StoryrunSteps

// A test's stand-in for a server a user's main starts before the run.
if let log = ProcessInfo.processInfo.environment["STORYRUN_FIXTURE_HELPER"] { FixtureHelper.start(noting: log) }

// storyrun runs its own stories: the driver steps run StoryKit on fixtures.
// Worker processes the driver starts (--jobs, --isolate) run the fixture
// stories, so they are told to register the fixture steps instead.
switch ProcessInfo.processInfo.environment["STORYRUN_FIXTURE_STEPS"] {
case "1": await StoryRun.main(steps: StoryrunSteps.fixtures)
case "faults": await StoryRun.main(steps: StoryrunSteps.faults)
case "rejected": await StoryRun.main(steps: StoryrunSteps.rejected)
case "parameters": await StoryRun.main(steps: StoryrunSteps.parameters)
case "shop": await StoryRun.main(steps: StoryrunSteps.shop)
case "consistency": await StoryRun.main(steps: StoryrunSteps.consistency)
case let setting? where setting.hasPrefix("cck:"): await StoryRun.main(steps: CCKSteps.steps(for: String(setting.dropFirst(4))))
case "steplibs": await StoryRun.main(steps: StoryrunSteps.stepLibraries)
case "steplib-faults": await StoryRun.main(steps: StoryrunSteps.stepLibraryFaults)
default: await StoryRun.main(steps: StoryrunSteps.driver)
}
