import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(3))) struct SourceLocationTests {
    @Test("A location prints as file:line, with the column when known")
    func description() {
        #expect(SourceLocation(file: "a.stories", line: 3).description == "a.stories:3")
        #expect(SourceLocation(file: "a.feature", line: 3, column: 5).description == "a.feature:3:5")
    }
}
