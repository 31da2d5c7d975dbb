import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct StepTemplateTests {
    @Test("Patterns become completion text with snippet placeholders", arguments: [
        (#".* I add (\d+) (.*) to the basket"#, StepDefinition.Syntax.regex, ["Int", "String"], "I add {Int} {String} to the basket", "I add ${1:Int} ${2:String} to the basket"),
        (#"^Given an empty basket$"#, .regex, [], "an empty basket", "an empty basket"),
        (#"^the customer has cheered (\d+) times?$"#, .regex, ["Int"], "the customer has cheered {Int} time", "the customer has cheered ${1:Int} time"),
        (#"^(?:the story file|a file named) (\S+)$"#, .regex, ["String"], "the story file {String}", "the story file ${1:String}"),
        (#"^the note says "(.*)" \$5$"#, .regex, ["String"], "the note says \"{String}\" $5", "the note says \"${1:String}\" \\$5"),
        ("I have {int} cucumber(s) in my belly/stomach", .expression, ["Int"], "I have {Int} cucumber in my belly", "I have ${1:Int} cucumber in my belly"),
        (#"I pay \{literally\} {float}"#, .expression, ["Double"], "I pay {literally} {Double}", "I pay {literally\\} ${1:Double}"),
    ])
    func templates(pattern: String, syntax: StepDefinition.Syntax, names: [String], label: String, snippet: String) {
        let template = StepTemplate(pattern: pattern, syntax: syntax, parameterNames: names)
        #expect(template.label == label)
        #expect(template.snippet == snippet)
    }
}
