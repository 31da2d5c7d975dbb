import Foundation
import StoryKit
import StoryrunSteps

// storyrun runs its own stories: the driver steps run StoryKit on fixtures.
// Worker processes the driver starts (--jobs, --isolate) run the fixture
// stories, so they are told to register the fixture steps instead.
let fixtures = ProcessInfo.processInfo.environment["STORYRUN_FIXTURE_STEPS"] == "1"
await StoryRun.main(steps: fixtures ? StoryrunSteps.fixtures : StoryrunSteps.driver)
