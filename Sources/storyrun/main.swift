import StoryKit
import StoryrunSteps

// storyrun runs its own stories: the driver steps run StoryKit on fixtures.
await StoryRun.main(steps: StoryrunSteps.driver)
