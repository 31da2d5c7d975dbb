import Foundation
import StoryKit

/// Fixture steps that misbehave on purpose: they end the process, crash it,
/// hang, leave processes behind and print, so the stories can show that a
/// supervised run survives all of it.
final class FaultSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<FaultSteps>) {
        step.beforeRun {
            switch ProcessInfo.processInfo.environment["STORYRUN_FAULT_BEFORE_RUN"] {
            case "crash": fatalError("a before-run hook crashed on purpose")
            case "throw": throw HookSabotage()
            default: try await sabotageAsync("STORYRUN_FAULT_BEFORE_RUN")
            }
        }
        step.before(tags: "@hanging-hook") { _ in
            usleep(30_000_000)  // blocks the thread: ignores cancellation
        }
        step.after(tags: "@crashing-hook") { _ in
            fatalError("an after hook crashed on purpose")
        }
        step("^the step calls exit\\((\\d+)\\)$") { (_: FaultSteps, code: Int32) in
            exit(code)
        }
        step("^the step raises (SIGSEGV|SIGTERM|SIGKILL)$") { (_: FaultSteps, name: String) in
            raise(["SIGSEGV": SIGSEGV, "SIGTERM": SIGTERM, "SIGKILL": SIGKILL][name]!)
        }
        step("^the step overflows the stack$") { _ in
            func deeper(_ depth: Int) -> Int { depth == Int.max ? 0 : deeper(depth + 1) + 1 }
            _ = deeper(0)
        }
        step("^the step starts a process that outlives it$") { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["299.5"]
            try process.run()
        }
        step("^the step prints \"(.*)\" and \"(.*)\" to its error output$") { (_: FaultSteps, text: String, error: String) in
            print(text)
            FileHandle.standardError.write(Data((error + "\n").utf8))
        }
        step("^the step logs \"(.*)\"$") { (_: FaultSteps, text: String) in
            log(text)
        }
        step("^a step that passes$") { _ in }

        // Hooks of every kind that misbehave when an environment variable
        // says so (STORYRUN_FAULT_AFTER_RUN=hang, say).
        step.afterRun { try await sabotageAsync("STORYRUN_FAULT_AFTER_RUN") }
        step.before { _ in try await sabotageAsync("STORYRUN_FAULT_BEFORE_STORY") }
        step.after { _ in try await sabotageAsync("STORYRUN_FAULT_AFTER_STORY") }
        step.beforeStep { _ in try await sabotageAsync("STORYRUN_FAULT_BEFORE_STEP") }
        step.afterStep { _ in try await sabotageAsync("STORYRUN_FAULT_AFTER_STEP") }

        step("^the step calls _exit\\((\\d+)\\)$") { (_: FaultSteps, code: Int32) in
            _exit(code)
        }
        step("^the step aborts$") { _ in abort() }
        step("^the step raises signal (\\d+)$") { (_: FaultSteps, signal: Int32) in
            raise(signal)
        }
        // Step code that blocks a signal on its thread before raising it:
        // the signal waits unseen until storyrun looks for it.
        step("^the step blocks signal (\\d+) and raises it$") { (_: FaultSteps, signal: Int32) in
            blockAndRaise(signal)
        }
        // Leaves the signal blocked on the thread, for the steps after it.
        step("^the step blocks signal (\\d+)$") { (_: FaultSteps, signal: Int32) in
            block(signal)
        }
        // As a Ctrl-C or a CI cancel: from another process, to the whole process.
        step("^another process sends signal (\\d+) to the step's process$") { (_: FaultSteps, signal: Int32) in
            let sender = Process()
            sender.executableURL = URL(fileURLWithPath: "/bin/kill")
            sender.arguments = ["-\(signal)", String(getpid())]
            try sender.run()
            // Busy until the signal waits, unseen, on this thread (which
            // blocks it), as it does when it comes while steps run; or
            // until some thread has taken it.
            let start = Date()
            var pending = sigset_t()
            while Date().timeIntervalSince(start) < 1 {
                if sigpending(&pending) == 0, sigismember(&pending, signal) == 1 { break }
            }
            sender.waitUntilExit()
        }
        step("^the step spins for ever$") { _ in
            var counter = 0
            while counter >= 0 { counter = (counter &+ 1) & 0xFFFF; if counter == 0 { sched_yield() } }
        }
        step("^the step sleeps (\\d+) s honouring cancellation$") { (_: FaultSteps, seconds: Int) in
            try await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
        }
        step("^the step prints (\\d+) MB$") { (_: FaultSteps, megabytes: Int) in
            let line = String(repeating: "x", count: 1023) + "\n"
            let block = String(repeating: line, count: 1024)
            for _ in 0..<megabytes { FileHandle.standardOutput.write(Data(block.utf8)) }
        }
        step("^the step prints (\\d+) bytes without a line end$") { (_: FaultSteps, count: Int) in
            FileHandle.standardOutput.write(Data(repeating: UInt8(ascii: "y"), count: count))
        }
        step("^the step prints (\\d+) zero bytes and \"(.*)\"$") { (_: FaultSteps, count: Int, text: String) in
            FileHandle.standardOutput.write(Data(repeating: 0, count: count) + Data((text + "\n").utf8))
        }
        step("^the step prints binary output$") { _ in
            var bytes = [UInt8](0...255)
            bytes += Array("]]>\u{1B}[31m<not-xml & \"quoted\"\u{0}\n".utf8)
            FileHandle.standardOutput.write(Data(bytes))
            FileHandle.standardError.write(Data([0xFF, 0xFE, 0x00, 0x1B, 0x07, 0x0A]))
        }
        step("^the step starts a thread that keeps printing$") { _ in
            Thread.detachNewThread {
                var count = 0
                while true {
                    count += 1
                    print("still printing \(count)")
                    fflush(nil)
                    usleep(20_000)
                }
            }
        }
        step("^the step closes descriptor (\\d+)$") { (_: FaultSteps, descriptor: Int32) in
            close(descriptor)
        }
        step("^the step duplicates descriptor (\\d+) onto (\\d+)$") { (_: FaultSteps, from: Int32, to: Int32) in
            dup2(from, to)
        }
        step("^the step opens /dev/null onto descriptor (\\d+)$") { (_: FaultSteps, to: Int32) in
            let null = open("/dev/null", O_RDWR)
            dup2(null, to)
            close(null)
        }
        step("^the step starts a process in a session of its own$") { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["-f", "/bin/sleep", "298.25"]
            try process.run()
            usleep(300_000)
        }
        step("^the step starts (\\d+) processes$") { (_: FaultSteps, count: Int) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "i=0; while [ $i -lt \(count) ]; do sleep 297.5 & i=$((i+1)); done; wait"]
            try process.run()
            usleep(500_000)
        }
        step("^the step changes directory to \"(.*)\"$") { (_: FaultSteps, path: String) in
            guard chdir(path) == 0 else { throw HookSabotage() }
        }
        step("^the step sets the umask to (\\d+)$") { (_: FaultSteps, mask: Int) in
            umask(mode_t(mask))
        }
        step("^the step sets signal (\\d+) to ignored$") { (_: FaultSteps, signal: Int32) in
            _ = Glibc.signal(signal, SIG_IGN)
        }
        step("^the step ignores SIGTERM and SIGINT$") { _ in
            signal(SIGTERM, SIG_IGN)
            signal(SIGINT, SIG_IGN)
        }
        step("^the step reads its standard input$") { _ in
            _ = FileHandle.standardInput.readDataToEndOfFile()
        }
        step("^the step crashes once, marking \"(.*)\"$") { (_: FaultSteps, path: String) in
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                fatalError("a step crashed once on purpose")
            }
        }
        // Captures that reports must place: nested groups, an optional
        // group that may take no part, parameters of a Cucumber Expression,
        // and a failure the first time (for --retry).
        step("^a step with nested \"((\\w+)-(\\d+))\"(?: and optional \"(\\w+)\")?$") {
            (_: FaultSteps, _: String, _: String, _: String, _: String?) in
        }
        step.expression("a step with {string} and {int} items") { (_: FaultSteps, _: String, _: Int) in }
        step("^the step fails once with \"(.*)\", marking \"(.*)\"$") { (_: FaultSteps, text: String, path: String) in
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                throw ExpectationFailure("failed once on purpose with \(text)", location: nil)
            }
        }
        step("^the step indexes an array out of range$") { _ in
            let numbers = [1, 2, 3]
            print("item 4:", numbers[numbers.count])  // one past the end: a trap
        }
        step("^the step waits (\\d+) ms$") { (_: FaultSteps, milliseconds: Int) in
            usleep(useconds_t(milliseconds * 1000))
        }
        // Which worker ran the story: its process id, a line appended to the file.
        step("^the step notes its process in \"(.*)\"$") { (_: FaultSteps, path: String) in
            let file = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            guard file >= 0 else { throw HookSabotage() }
            defer { close(file) }
            let line = "\(getpid())\n"
            _ = line.withCString { write(file, $0, strlen($0)) }
        }
        // How its worker started: forked (the run's own command line) or
        // started again (with --worker), a line appended to the file.
        step("^the step notes its command line in \"(.*)\"$") { (_: FaultSteps, path: String) in
            let words = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/cmdline"))) ?? Data()
            let line = String(decoding: words.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self) + "\n"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line.utf8))
        }
        step("^the step writes the file \"(.*)\"$") { (_: FaultSteps, path: String) in
            try Data("written by a step\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        step("^the step kills its worker with SIGKILL in (\\d+) microseconds$") { (_: FaultSteps, delay: Int) in
            Thread.detachNewThread {
                usleep(useconds_t(delay))
                if let log = ProcessInfo.processInfo.environment["STORYRUN_ATTACK_LOG"] {
                    let line = "killed \(getpid())\n"
                    let file = open(log, O_WRONLY | O_APPEND | O_CREAT, 0o644)
                    _ = line.withCString { write(file, $0, strlen($0)) }
                    close(file)
                }
                _ = kill(getpid(), SIGKILL)
            }
        }
        step("^the step closes descriptor (\\d+) and opens the file \"(.*)\", closed on exec$") { (_: FaultSteps, descriptor: Int32, path: String) in
            close(descriptor)
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if file != descriptor { throw HookSabotage() }
        }
        step("^the step sends SIGTERM to its run$") { _ in
            // A supervised worker's parent is the run.
            _ = kill(getppid(), SIGTERM)
        }
        // Review: a thread the step leaves behind that keeps starting
        // processes (Foundation's Process: a group of their own).
        step("^the step starts a thread that starts a process every (\\d+) ms$") { (_: FaultSteps, milliseconds: Int) in
            Thread.detachNewThread {
                while true {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sleep")
                    process.arguments = ["299.5"]
                    try? process.run()
                    usleep(useconds_t(milliseconds * 1000))
                }
            }
        }
        // Review: a shell command left running in the background.
        step("^the step runs the shell command \"(.*)\" in the background$") { (_: FaultSteps, command: String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            try process.run()
        }
        // Adversary: a story file edited while the run goes on (an editor,
        // a checkout), its lines counted from 1.
        step("^the step replaces line (\\d+) of \"(.*)\" with \"(.*)\"$") { (_: FaultSteps, number: Int, path: String, text: String) in
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            guard number >= 1, number <= lines.count else { throw HookSabotage() }
            lines[number - 1] = text
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        }
        step("^a step that passes with \"(.*)\"$") { (_: FaultSteps, _: String) in }
        step("^the step truncates descriptor (\\d+)$") { (_: FaultSteps, descriptor: Int32) in
            _ = ftruncate(descriptor, 0)
        }
        step("^the step writes \"(.*)\" and a line end to descriptor (\\d+)$") { (_: FaultSteps, text: String, descriptor: Int32) in
            _ = (text + "\n").withCString { write(descriptor, $0, strlen($0)) }
        }
        step("^the step (unmaps|write-protects) its shared page$") { (_: FaultSteps, how: String) in
            let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
            for line in maps.split(separator: "\n") where line.contains("storyrun-position") {
                let range = line.split(separator: " ")[0].split(separator: "-")
                guard let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                    let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
                if how == "unmaps" { munmap(address, Int(end - start)) } else { mprotect(address, Int(end - start), PROT_READ) }
            }
        }
        step("^the step fails with a (\\d+) MB message on one line$") { (_: FaultSteps, megabytes: Int) in
            throw HugeFailure(message: String(repeating: "x", count: megabytes << 20))
        }
        step("^the step fails with a (\\d+) MB message repeating \"(.*)\"$") { (_: FaultSteps, megabytes: Int, text: String) in
            let piece = text.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\e", with: "\u{1B}")
            throw HugeFailure(message: String(repeating: piece, count: max(1, (megabytes << 20) / max(1, piece.utf8.count))))
        }
        // Stray writes into the page a worker shares with its parent (slot
        // numbers as ``SharedPosition`` lays them out: 0 the phase, 5 the
        // deadline): the parent must not take them for the truth.
        step("^the step writes (\\d+) into slot (\\d+) of its shared page$") { (_: FaultSteps, value: Int, slot: Int) in
            writeSharedSlot(slot, UInt64(value))
        }
        step("^the step keeps writing (\\d+) into slot (\\d+) of its shared page for (\\d+) s$") {
            (_: FaultSteps, value: Int, slot: Int, seconds: Int) in
            let end = Date().addingTimeInterval(Double(seconds))
            while Date() < end {
                writeSharedSlot(slot, UInt64(value))
                usleep(1_000)
            }
        }
        // Adversary: step code that opens files and never closes them, until
        // its process can open no more.
        step("^the step leaks descriptors until none is left$") { _ in
            while open("/dev/null", O_RDONLY) >= 0 {}
        }
    }

    /// An error whose message is as long as a test asks.
    struct HugeFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Misbehaves as the environment variable `name` says.
    static func sabotage(_ name: String) throws {
        switch ProcessInfo.processInfo.environment[name] {
        case "crash": fatalError("the hook (\(name)) crashed on purpose")
        case "throw": throw HookSabotage()
        case "exit": exit(0)
        case "hang": usleep(30_000_000)
        case "print": print("printed by the hook (\(name))")
        case "stray-end": _ = "E\n".withCString { write(4, $0, 2) }
        case "blockraise15": blockAndRaise(SIGTERM)
        case "leak": while open("/dev/null", O_RDONLY) >= 0 {}
        // Marks its worker's phase as done on the shared page (slot 0),
        // then exits (0) or hangs.
        case "mark-done-exit":
            writeSharedSlot(0, 4)
            exit(0)
        case "mark-done-hang":
            writeSharedSlot(0, 4)
            while true { writeSharedSlot(5, 0); usleep(1_000) }
        default: break
        }
    }

    /// Stores `value` into slot `slot` (8 bytes each) of this worker's
    /// shared page, found by its name in the process's memory map.
    static func writeSharedSlot(_ slot: Int, _ value: UInt64) {
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        for line in maps.split(separator: "\n") where line.contains("storyrun-position") {
            let range = line.split(separator: " ")[0].split(separator: "-")
            guard let start = UInt(range[0], radix: 16), let address = UnsafeMutablePointer<UInt64>(bitPattern: start) else { continue }
            address[slot] = value
        }
    }

    static func block(_ signal: Int32) {
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, signal)
        pthread_sigmask(SIG_BLOCK, &only, nil)
    }

    static func blockAndRaise(_ signal: Int32) {
        block(signal)
        raise(signal)
    }

    static func sabotageAsync(_ name: String) async throws {
        if ProcessInfo.processInfo.environment[name] == "sleep" {
            try await Task.sleep(nanoseconds: 30_000_000_000)
        }
        try sabotage(name)
    }
}
