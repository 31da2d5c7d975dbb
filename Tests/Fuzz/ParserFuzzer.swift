// libFuzzer entry point for storyrun's parsers (`make fuzz`): every input
// must parse to stories or diagnostics without a crash, a hang or a leak.
// Built with swiftc -sanitize=fuzzer,address from the parser sources, so it
// is not part of the Swift package.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let (stories, diagnostics) = StoryLoader.parse(text, path: "fuzz.stories")
    for diagnostic in diagnostics { _ = diagnostic.rendered() }
    precondition(stories.allSatisfy { !$0.steps.isEmpty }, "a story without steps was accepted")
    #if FUZZ_FEATURES
    let feature = StoryLoader.parse(text, path: "fuzz.feature")
    for diagnostic in feature.diagnostics { _ = diagnostic.rendered() }
    #endif
    return 0
}
