import StoryKit

/// The step definitions that run storyrun's own stories in `Stories/`.
public enum StoryrunSteps {}
