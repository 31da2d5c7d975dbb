import Foundation
import Testing
@testable import StoryKit

/// `Story`, `Step` and `StepResult` keep their fields in one shared
/// reference (a copy is one retain): they must still behave as values,
/// compare and hash by content, and encode exactly as the plain structs
/// they were.
@Suite(.timeLimit(.minutes(10))) struct SharedFieldsTests {
    static let place = StoryKit.SourceLocation(file: "Stories/shop.feature", line: 7, column: 5)

    static func step(text: String = "a basket with 3 apples", attachment: StepAttachment? = nil) -> Step {
        Step(keyword: "Given", kind: .context, text: text, location: place, attachment: attachment)
    }

    @Test("Setting a field of a copy leaves the original as it was")
    func copiesAreValues() {
        let original = Self.step()
        var copy = original
        copy.text = "an empty basket"
        copy.keyword = "And"
        copy.location.line = 9
        #expect(original.text == "a basket with 3 apples")
        #expect(original.keyword == "Given")
        #expect(original.location.line == 7)
        #expect(copy.text == "an empty basket" && copy.keyword == "And" && copy.location.line == 9)
        #expect(copy.kind == .context)

        let result = StepResult(step: original, status: .passed, duration: 5, error: nil, match: nil, alsoMatched: [])
        var changed = result
        changed.status = .failed
        changed.error = StepError(message: "no apples")
        changed.error?.location = Self.place
        changed.attachments.append(Attachment(body: "log", encoding: .identity, mediaType: "text/plain"))
        changed.step.text = "a full basket"
        #expect(result.status == .passed && result.error == nil && result.attachments.isEmpty)
        #expect(result.step.text == "a basket with 3 apples")
        #expect(changed.status == .failed && changed.error?.message == "no apples" && changed.error?.location == Self.place)
        #expect(changed.attachments.count == 1 && changed.step.text == "a full basket")
    }

    @Test("A story's copy changes alone; stories equal by content, encode as before")
    func stories() throws {
        let story = Story(name: "Buying apples", tags: ["@shop"], location: Self.place, steps: [Self.step()])
        var copy = story
        copy.tags.append("@slow")
        copy.steps[0].text = "no apples"
        copy.name = "Buying pears"
        #expect(story.tags == ["@shop"] && story.steps[0].text == "a basket with 3 apples" && story.name == "Buying apples")
        #expect(copy.tags == ["@shop", "@slow"] && copy.steps[0].text == "no apples" && copy.name == "Buying pears")
        #expect(story.id == "Stories/shop.feature:7" && story.groupName == "Stories/shop.feature")
        let twin = Story(name: "Buying apples", tags: ["@shop"], location: Self.place, steps: [Self.step()])
        #expect(twin == story && twin.hashValue == story.hashValue && twin != copy)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(story), as: UTF8.self)
        #expect(text.hasPrefix(#"{"groupName":"Stories\/shop.feature","id":"Stories\/shop.feature:7","location":"#))
        #expect(try JSONDecoder().decode(Story.self, from: Data(text.utf8)) == story)
    }

    @Test("Steps equal by content hash alike, made apart or copied")
    func equality() {
        let one = Self.step(attachment: .docString(DocString(content: "x", mediaType: nil, location: Self.place)))
        let two = Self.step(attachment: .docString(DocString(content: "x", mediaType: nil, location: Self.place)))
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(Set([one, two, one]).count == 1)
        var other = two
        other.kind = .action
        #expect(other != one)
        #expect(Self.step(text: "b") != Self.step(text: "c"))
    }

    /// The synthesized encoding of the old structs, field by field in
    /// declaration order, optionals left out when nil.
    @Test("Encoding is that of the plain structs, and decodes to the same")
    func encoding() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plain = Self.step()
        let text = String(decoding: try encoder.encode(plain), as: UTF8.self)
        #expect(text == #"{"keyword":"Given","kind":"context","location":{"column":5,"file":"Stories\/shop.feature","line":7},"text":"a basket with 3 apples"}"#)

        let full = StepResult(
            step: Self.step(attachment: .docString(DocString(content: "x", mediaType: "json", location: Self.place))), status: .undefined,
            duration: 12, error: StepError(message: "m", location: Self.place),
            match: MatchInfo(pattern: "^a (\\d+)$", location: Self.place, arguments: ["3", nil]),
            alsoMatched: [MatchInfo(pattern: "a", location: Self.place, arguments: [])],
            didYouMean: MatchInfo(pattern: "b", location: Self.place, arguments: []), snippet: "step(\"x\")",
            attachments: [Attachment(body: "log", encoding: .identity, mediaType: "text/plain")])
        let decoded = try JSONDecoder().decode(StepResult.self, from: encoder.encode(full))
        #expect(try encoder.encode(decoded) == encoder.encode(full))
        #expect(decoded.step == full.step && decoded.status == .undefined && decoded.duration == 12)
        #expect(decoded.match == full.match && decoded.alsoMatched == full.alsoMatched && decoded.didYouMean == full.didYouMean)
        #expect(decoded.snippet == "step(\"x\")" && decoded.attachments == full.attachments && decoded.error == full.error)

        let bare = StepResult(step: plain, status: .passed, duration: 1, error: nil, match: nil, alsoMatched: [])
        let bareText = String(decoding: try encoder.encode(bare), as: UTF8.self)
        #expect(bareText.hasPrefix(#"{"alsoMatched":[],"attachments":[],"duration":1,"status":"passed","step":{"#))
        #expect(!bareText.contains("error") && !bareText.contains("didYouMean") && !bareText.contains("snippet"))
    }
}

extension SharedFieldsTests {
    @Test("Printed field by field, as the plain structs were")
    func printed() {
        let step = Self.step()
        #expect(String(describing: step).hasPrefix(#"Step(keyword: "Given", kind: StoryKit.Step.Kind.context, text: "a basket with 3 apples", location: "#))
        #expect(String(describing: step).hasSuffix("attachment: nil)"))
        let result = StepResult(step: step, status: .passed, duration: 1, error: nil, match: nil, alsoMatched: [])
        #expect(String(describing: result).hasPrefix("StepResult(step: StoryKit.Step(keyword: \"Given\""))
        #expect(String(describing: result).contains("status: StoryKit.StepStatus.passed, duration: 1, error: nil"))
        let story = Story(name: "Apples", location: Self.place, steps: [step])
        #expect(String(describing: story).hasPrefix(#"Story(id: "Stories/shop.feature:7", name: "Apples", tags: [], location: "#))
    }
}
