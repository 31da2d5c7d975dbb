#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The `swift build` that makes the running executable anew, for watch
/// mode, and the restart into what it built.
///
/// The package, product and configuration come from the executable's path:
/// `PACKAGE/.build/…/debug/NAME` is built with
/// `swift build --package-path PACKAGE -c debug --product NAME`.
struct SwiftRebuild: Equatable {
    /// The folder of the package.
    let packageFolder: String
    /// The executable product.
    let product: String
    /// `debug` or `release`.
    let configuration: String
    /// The executable's path, which the build rewrites.
    let executable: String

    /// What a build came to.
    enum Outcome: Equatable {
        /// The executable was built anew.
        case rebuilt
        /// The build succeeded and left the executable as it was.
        case unchanged
        /// The build failed; what it printed, without its progress lines.
        case failed(String)
        /// The build could not start.
        case cannotStart(String)
        /// The run was interrupted during the build (which was ended).
        case interrupted
    }

    /// The rebuild of the executable at `path`; nil when it is not in a
    /// package's `.build` folder.
    static func forExecutable(_ path: String) -> SwiftRebuild? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let build = parts.lastIndex(of: ".build"), build < parts.count - 2 else { return nil }
        let configuration = String(parts[parts.count - 2])
        guard configuration == "debug" || configuration == "release" else { return nil }
        let folder = parts[..<build].joined(separator: "/")
        return SwiftRebuild(
            packageFolder: folder.isEmpty ? "/" : folder, product: String(parts.last!), configuration: configuration,
            executable: path)
    }

    /// The path of the running executable (`/proc/self/exe`), read before
    /// a build replaces it.
    static func runningExecutable() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(10)) : path
    }

    /// The command that builds the executable, after `swift`.
    var arguments: [String] {
        ["build", "--package-path", packageFolder, "-c", configuration, "--product", product]
    }

    /// Runs `swift build`; ends it when `isStopped` says so.
    func build(isStopped: () -> Bool) -> Outcome {
        guard let swift = Self.find("swift") else { return .cannotStart("swift is not on the PATH") }
        guard let pipe = Descriptors.pipe() else { return .cannotStart(String(cString: strerror(errno))) }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let before = WatchedTree.stamp(executable)
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(
                swift, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                descriptors: [0: null, 1: pipe.write, 2: pipe.write])
        } catch {
            for descriptor in [pipe.read, pipe.write, null] { close(descriptor) }
            return .cannotStart("swift build: \(error.description)")
        }
        close(pipe.write)
        close(null)
        defer { close(pipe.read) }
        Descriptors.nonBlocking(pipe.read)
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func drain() {
            while true {
                let count = read(pipe.read, &buffer, buffer.count)
                guard count > 0 else { return }
                printed += buffer[..<count]
            }
        }
        var ending: ChildProcess.Ending?
        while ending == nil {
            if isStopped() {
                process.killGroup()
                while process.poll() == nil { usleep(10_000) }
                return .interrupted
            }
            var descriptors = [pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 1, 100)
            drain()
            ending = process.poll()
        }
        drain()
        guard ending == .exited(0) else {
            return .failed(Self.errors(in: String(decoding: printed, as: UTF8.self)))
        }
        return WatchedTree.stamp(executable) == before ? .unchanged : .rebuilt
    }

    /// What `swift build` printed, without its progress lines.
    static func errors(in text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in
                !(line.hasPrefix("[") && line.contains("] ")) && !line.hasPrefix("Building for ")
                    && !line.hasPrefix("Compiling ") && !line.hasPrefix("Write ")
            }
            .joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Replaces this process with the executable, with the same arguments;
    /// returns only when that fails, with the reason.
    func restart() -> String {
        fflush(nil)
        let argv = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(executable, argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        return "cannot restart \(executable): \(reason)"
    }

    /// The path of a program on the PATH.
    static func find(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
