import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SwiftRebuildTests {
    @Test("The package, product and configuration come from the executable's path")
    func fromPath() {
        #expect(SwiftRebuild.forExecutable("/work/app/.build/x86_64-unknown-linux-gnu/debug/tictactoe") == SwiftRebuild(
            packageFolder: "/work/app", product: "tictactoe", configuration: "debug",
            executable: "/work/app/.build/x86_64-unknown-linux-gnu/debug/tictactoe"))
        #expect(SwiftRebuild.forExecutable("/work/app/.build/release/app-steps")?.arguments
            == ["build", "--package-path", "/work/app", "-c", "release", "--product", "app-steps"])
        #expect(SwiftRebuild.forExecutable("/usr/local/bin/storyrun") == nil)
        #expect(SwiftRebuild.forExecutable("/work/app/.build/debug/Foo.build/foo") == nil)
    }

    @Test("A failed build shows its errors without the progress lines")
    func errors() {
        let printed = """
            Building for debugging...
            [1/4] Compiling App Steps.swift
            /work/app/Sources/App/Steps.swift:3:5: error: cannot find 'x' in scope
            3 |     x
              |     `- error: cannot find 'x' in scope
            [2/4] Write Objects.LinkFileList

            """
        #expect(SwiftRebuild.errors(in: printed) == """
            /work/app/Sources/App/Steps.swift:3:5: error: cannot find 'x' in scope
            3 |     x
              |     `- error: cannot find 'x' in scope
            """)
    }
}
