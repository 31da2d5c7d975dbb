/// One line of a story that maps to a step definition.
public struct Step: Hashable, Sendable, Codable {
    /// The part a step plays in a story.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// `As …`: who the story is for.
        case role
        /// `Given …`: the context.
        case context
        /// `When …`: the action.
        case action
        /// `Then …`: the outcome.
        case outcome
        /// `*` in Gherkin, or a keyword with no kind of its own.
        case unknown
    }

    /// The keyword as written, without trailing blanks (`Given`, `and`, `*`).
    public var keyword: String
    /// The kind, with `And` and `But` resolved to the kind of the step before.
    public var kind: Kind
    /// The text after the keyword.
    public var text: String
    /// Where the step is written.
    public var location: SourceLocation
    /// A doc string or data table written under the step (Gherkin only).
    public var attachment: StepAttachment?

    /// Creates a step.
    public init(
        keyword: String, kind: Kind, text: String, location: SourceLocation,
        attachment: StepAttachment? = nil
    ) {
        self.keyword = keyword
        self.kind = kind
        self.text = text
        self.location = location
        self.attachment = attachment
    }

    /// The whole line as written, keyword included: what a Simon pattern sees.
    public var line: String { text.isEmpty ? keyword : "\(keyword) \(text)" }
}
