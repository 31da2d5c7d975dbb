import StoryKit

await StoryRun.main(steps: [BoardSteps.self])
