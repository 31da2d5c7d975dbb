import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct ExpectationsTests {
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let failure as ExpectationFailure {
            #expect(failure.location?.file.hasSuffix("ExpectationsTests.swift") == true)
            return failure.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("Each expectation passes silently or fails with what it expected and the caller's line")
    func expectations() {
        #expect(Self.message { try expect(true) } == nil)
        #expect(Self.message { try expect(false) } == "expected true, got false")
        #expect(Self.message { try expect(false, "the door is open") } == "the door is open")
        #expect(Self.message { try expectFalse(true) } == "expected false, got true")
        #expect(Self.message { try expectEqual(2, 3) } == "expected 3, got 2")
        #expect(Self.message { try expectEqual("a", "b", "name") } == "name: expected \"b\", got \"a\"")
        #expect(Self.message { try expectNil(Optional(4)) } == "expected nil, got 4")
        #expect(Self.message { _ = try expectNotNil(Optional<Int>.none) } == "expected a value, got nil")
        #expect(Self.message { try fail("no") } == "no")
    }

    @Test("The store gives typed values and says what is missing or of the wrong type")
    func store() throws {
        let store = StoryStore()
        store["count"] = 3
        #expect(try store.value("count", as: Int.self) == 3)
        #expect(throws: StoryStoreError.self) { try store.value("count", as: String.self) }
        do {
            _ = try store.value("missing", as: Int.self)
        } catch let error as StoryStoreError {
            #expect(error.message == #"nothing is stored under "missing" in this story (stored keys: "count")"#)
        }
    }

    @Test("waitUntil returns once the condition holds and fails after its timeout")
    func waiting() async throws {
        var calls = 0
        // A generous limit: other tests may hold the cooperative threads for a while.
        try await waitUntil(timeout: 540, interval: 0.001) { calls += 1; return calls >= 3 }
        #expect(calls == 3)
        await #expect(throws: ExpectationFailure.self) { try await waitUntil(timeout: 0.02, interval: 0.005) { false } }
    }

    @Test("Reports are written whole: no temporary file is left, and a bad folder is an error")
    func atomicFile() throws {
        let folder = NSTemporaryDirectory() + "atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFile.write("one", to: folder + "/r.txt")
        try AtomicFile.write("two", to: folder + "/r.txt")
        #expect(try String(contentsOfFile: folder + "/r.txt", encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["r.txt"])
        #expect(throws: Diagnostic.self) { try AtomicFile.write("x", to: folder + "/missing/r.txt") }
    }
}
