import StoryKit
import StoryrunSteps
