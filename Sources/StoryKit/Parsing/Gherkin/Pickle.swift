/// A compiled scenario, as Cucumber calls it: one scenario, or one row of
/// an outline's examples, with background steps and placeholders filled in.
struct Pickle: Sendable {
    /// A tag that reaches the pickle, inherited ones first.
    struct Tag: Sendable {
        /// The tag with its `@`.
        var name: String
        /// The id of the tag in the syntax tree.
        var astNodeID: Int
    }

    /// A step of a pickle.
    struct Step: Sendable {
        /// The step's part, with `And` and `But` resolved to the step before.
        enum StepType: String, Sendable {
            case context = "Context"
            case action = "Action"
            case outcome = "Outcome"
            case unknown = "Unknown"
        }

        /// A doc string argument, placeholders filled in.
        struct DocString: Sendable {
            /// The text.
            var content: String
            /// The media type, if the fence named one.
            var mediaType: String?
        }

        /// The step's id.
        var id: Int
        /// The ids of the source step and, in an outline, the examples row.
        var astNodeIDs: [Int]
        /// The step's part.
        var type: StepType
        /// The text, placeholders filled in.
        var text: String
        /// The doc string argument, if any.
        var docString: DocString?
        /// The data table argument's cells, if any.
        var dataTable: [[String]]?
        /// The step in the syntax tree this one was compiled from.
        var source: GherkinStep
    }

    /// The pickle's id.
    var id: Int
    /// The file's URI.
    var uri: String
    /// The name, placeholders filled in.
    var name: String
    /// The dialect's code.
    var language: String
    /// The scenario's line, or for an outline the examples row's.
    var location: GherkinLocation
    /// The tags: feature's, rule's, scenario's, then the examples'.
    var tags: [Tag]
    /// The steps: background steps first.
    var steps: [Step]
    /// The ids of the scenario and, in an outline, the examples row.
    var astNodeIDs: [Int]
}
