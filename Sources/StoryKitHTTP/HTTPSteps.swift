import StoryKit
