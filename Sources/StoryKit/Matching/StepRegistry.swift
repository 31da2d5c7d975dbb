import Foundation

/// The frozen list of step definitions: finds which ones match a step.
public struct StepRegistry: Sendable {
    /// The definitions in registration order.
    public let definitions: [StepDefinition]

    init(definitions: [StepDefinition]) {
        self.definitions = definitions
    }

    /// Returns every definition that matches the step, in registration order.
    ///
    /// A regex is searched in the whole line, keyword included, then in the
    /// text after the keyword.
    public func matches(_ step: Step) -> MatchResult {
        MatchResult(matches: matches(line: step.line, text: step.text, attachment: step.attachment))
    }

    func matches(line: String, text: String, attachment: StepAttachment?) -> [Match] {
        definitions.compactMap { definition in
            guard let captures = definition.matcher.captures(in: line) ?? definition.matcher.captures(in: text)
            else { return nil }
            return Match(
                definition: definition,
                inputs: captures.map { .text($0) } + [.attachment(attachment)])
        }
    }
}
