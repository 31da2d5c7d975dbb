import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct StackTraceTests {
    @Test("Frames in glibc's form and in the Swift runtime's are read under the trace's first line, at most 64")
    func frames() {
        let text = """
            Fatal error: on purpose
            Current stack trace:
            /opt/swift/usr/lib/swift/linux/libswiftCore.so($ss17_assertionFailure+0xe1)[0x7f990d2f9361]
            /work/.build/debug/storyrun(+0x4e8ded)[0x559d3819eded]
            [0x7f990d2f9361]
            after the trace
            Current stack trace:
            3    libswiftCore.so                    0x00007f48230f9280 _assertionFailure(_:_:file:line:flags:) + 221
            4    storyrun                           0x000055ddcb4d9ded <unavailable> + 5148141
            """
        let frames = StackTrace.frames(in: text.split(separator: "\n", omittingEmptySubsequences: false))
        #expect(frames.map(\.line) == [2, 3, 4, 7, 8])
        #expect(frames.map(\.depth) == [0, 1, 2, 0, 1])
        #expect(frames[0].symbol == "$ss17_assertionFailure" && frames[0].offset == 0xE1 && frames[0].callOffset == nil)
        #expect(frames[1].module == "/work/.build/debug/storyrun" && frames[1].symbol == nil)
        // A frame below the first called on: the byte before its return address.
        #expect(frames[1].callOffset == 0x4E_8DEC)
        #expect(frames[3].symbol == "_assertionFailure(_:_:file:line:flags:)" && frames[3].form == .swiftRuntime)
        #expect(frames[4].module == "storyrun" && frames[4].callOffset == 5_148_140)

        let long = "Current stack trace:\n" + String(repeating: "storyrun(+0x10)[0x20]\n", count: 100)
        #expect(StackTrace.frames(in: long.split(separator: "\n")).count == 64)
    }

    @Test("Lines that only look like frames are not read as frames")
    func notFrames() {
        let lines: [Substring] = ["Current stack trace:", "see (this)[here]", "1 2 3 4 + x", "(+0xZZ)[0x1]"]
        #expect(StackTrace.frames(in: lines).isEmpty)
    }
}
