/// A class of step definitions: patterns mapped to closures that act on one
/// instance of the class.
///
/// storyrun makes one instance the first time a story needs it, reuses it for
/// the rest of that story and drops it when the story ends, so properties carry
/// state between the steps of one story and never into the next.
///
/// ```swift
/// final class BasketSteps: StepDefinitions {
///     var basket: [String: Int] = [:]
///     required init() {}
///     static func define(_ step: StepMap<BasketSteps>) {
///         step("^Given an empty basket$") { steps in steps.basket = [:] }
///         step(".* I add (\\d+) (.*) to the basket") { (steps: BasketSteps, count: Int, item: String) in
///             steps.basket[item, default: 0] += count
///         }
///     }
/// }
/// ```
public protocol StepDefinitions: AnyObject, SendableMetatype {
    /// Creates the instance a story uses.
    init()

    /// Registers the class's patterns and closures.
    static func define(_ step: StepMap<Self>)
}

extension StepDefinitions {
    /// The current story's key-value store, shared by every step class.
    public var store: StoryStore { StoryStore.current }
}
