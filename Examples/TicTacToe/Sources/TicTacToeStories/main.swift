import StoryKit

await StoryRun.main(steps: AllSteps.classes)
