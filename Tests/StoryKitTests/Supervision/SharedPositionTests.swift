import Foundation
import Testing

@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SharedPositionTests {
    @Test("A worker gives back exactly the stories in the range its parent asked for")
    func giveBack() throws {
        var template = Array("/tmp/storyrun-position-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(descriptor >= 0)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(descriptor) }
        let position = try #require(SharedPosition.map(fileDescriptor: descriptor))
        // Nothing asked back yet, story 0 included.
        #expect(!(0..<10).contains { position.givesBack($0) })
        position.giveBack(from: 0, through: 3)
        #expect((0..<10).filter { position.givesBack($0) } == [0, 1, 2, 3])
        // A later range replaces it.
        position.giveBack(from: 7, through: 8)
        #expect((0..<10).filter { position.givesBack($0) } == [7, 8])
    }
}
