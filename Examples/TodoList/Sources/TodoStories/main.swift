import StoryKit
import StoryKitHTTP
import StoryKitProcess

// The stories run the `todo` program and stub the sync server it calls.
await StoryRun.main(steps: [ProcessSteps.self, StubServiceSteps.self])
