/// One input to a step closure's parameter: a capture group's text, a value a
/// parameter type already made, or the block written under the step.
public enum StepArgumentInput: @unchecked Sendable {
    /// The text a capture group matched; nil when the group took no part.
    case text(String?)
    /// A value a Cucumber Expression parameter type made, with its text.
    case value(Any, text: String?)
    /// The doc string or data table under the step, if there is one.
    case attachment(StepAttachment?)

    /// The captured text, if this input has any.
    public var text: String? {
        switch self {
        case .text(let text), .value(_, let text): text
        case .attachment: nil
        }
    }
}
