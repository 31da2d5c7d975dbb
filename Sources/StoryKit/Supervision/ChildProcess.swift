#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A process started in a process group of its own (a worker: in a session
/// of its own), with the file descriptors its parent chose, so that it and
/// everything it starts can be ended together, and told apart from what
/// its parent started itself (see ``Orphans``).
struct ChildProcess {
    let pid: pid_t

    /// Why a process could not be started.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `path` with `arguments`; `descriptors` maps each of the
    /// child's descriptors (0, 1, 2, 3…) to one of ours. With `ownSession`
    /// the child leads a session of its own (and so a process group),
    /// which nothing it starts can leave for this process's session.
    static func spawn(
        _ path: String, arguments: [String], environment: [String: String], descriptors: [Int32: Int32], ownSession: Bool = false
    ) throws(StartError) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let moved = copiesOutOfTheWay(descriptors)
        defer { for copy in moved.values { close(copy) } }
        for (child, parent) in descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, moved[parent] ?? parent, child)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // The child starts with default signal handling and nothing blocked,
        // whatever the parent ignores (SIGPIPE) or blocks.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // A session leader cannot change its group: one flag or the other
        // (POSIX_SPAWN_SETSID, glibc 2.26).
        let group = ownSession ? 0x80 : Int32(POSIX_SPAWN_SETPGROUP)
        posix_spawnattr_setflags(&attributes, Int16(group | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw StartError(description: "cannot start a worker process (\(path)): \(String(cString: strerror(status)))")
        }
        return ChildProcess(pid: pid)
    }

    /// What ``forkIfAlone(descriptors:closing:)`` made of this process.
    enum Forked {
        /// This is the parent; the child runs on.
        case parent(ChildProcess)
        /// This is the child: the same program, at the same point, with the
        /// descriptors it was given, in a session of its own.
        case child
    }

    /// Forks this process, without exec, when that is safe: this thread is
    /// its only one, and neither libdispatch nor anything else has made
    /// state that a child would share with its parent (an event loop's
    /// epoll, eventfd or timerfd). nil otherwise, or when fork fails: then
    /// ``spawn(_:arguments:environment:descriptors:ownSession:)`` starts
    /// the program again.
    ///
    /// A fork costs a fraction of a millisecond; exec'ing the program
    /// again costs loading and linking Foundation once more (about 7 ms
    /// here), on every run's critical path. In the child, `descriptors`
    /// map as for `spawn`, the parent's copies in `closing` are closed,
    /// every signal is back to its default and none is blocked.
    static func forkIfAlone(descriptors: [Int32: Int32], closing: [Int32]) -> Forked? {
        #if os(Linux)
        guard ForkCheck.isSafe else { return nil }
        fflush(nil)
        let pid = Glibc.fork()
        guard pid >= 0 else { return nil }
        guard pid == 0 else {
            // Not set here too, as a group would be: a group leader cannot
            // start a session. Until the child has, a kill of its group
            // misses, but a kill of the child does not, and it has started
            // nothing.
            return .parent(ChildProcess(pid: pid))
        }
        _ = setsid()
        let moved = copiesOutOfTheWay(descriptors)
        for (target, source) in descriptors where dup2(moved[source] ?? source, target) < 0 { _exit(127) }
        for copy in moved.values { close(copy) }
        // Numbers up to the highest target were overwritten by dup2.
        let highest = descriptors.keys.max() ?? -1
        for descriptor in closing where descriptor > highest { close(descriptor) }
        for signal in 1..<Int32(65) where signal != SIGKILL && signal != SIGSTOP {
            Glibc.signal(signal, SIG_DFL)
        }
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        return .child
        #else
        return nil
        #endif
    }

    /// Close-on-exec copies, above every target, of the sources that sit at
    /// a number the child's descriptors take (a pipe at 1, 3 or 4, say):
    /// descriptors are mapped one after another, and one would overwrite a
    /// source still to be copied. A source that cannot be copied is used
    /// as it is.
    private static func copiesOutOfTheWay(_ descriptors: [Int32: Int32]) -> [Int32: Int32] {
        let highest = descriptors.keys.max() ?? -1
        var copies: [Int32: Int32] = [:]
        for source in Set(descriptors.values) where source <= highest {
            let copy = fcntl(source, F_DUPFD_CLOEXEC, highest + 1)
            if copy >= 0 { copies[source] = copy }
        }
        return copies
    }

    /// Ends the process and every process in its group at once.
    func killGroup() {
        _ = kill(-pid, SIGKILL)
        _ = kill(pid, SIGKILL)
    }

    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// How the process ended, if it has (reaps it); nil while it runs.
    func poll() -> Ending? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 ? .exited(-1) : nil }
        // WIFSIGNALED and WEXITSTATUS are macros Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}

/// Processes that user code started and left behind.
///
/// Foundation's `Process` puts each child in a process group of its own, so
/// ending a worker's group does not reach them. The parent is therefore a
/// child subreaper: a worker's orphans become the parent's children when the
/// worker ends, and the parent ends them.
///
/// It ends only those: each worker leads a session of its own, which
/// nothing started from it can leave for the parent's (a process can only
/// start a session, never join one), so a child of the parent in the
/// parent's session is the parent's own (one a custom reporter started,
/// say), and is left alone, as is every child the parent had before its
/// first worker (a server the executable's `main` started, even one that
/// leads a session of its own).
enum Orphans {
    @_silgen_name("prctl")
    private static func prctl(_ option: Int32, _ arg2: UInt, _ arg3: UInt, _ arg4: UInt, _ arg5: UInt) -> Int32

    /// A run started with SIGCHLD ignored sets it back to its default:
    /// ignored, children leave no exit status to wait for, and a worker's
    /// crash read "exited with status -1".
    static func waitsForChildren() {
        guard Interrupts.isIgnored(SIGCHLD) else { return }
        _ = Glibc.signal(SIGCHLD, SIG_DFL)
    }

    /// Makes this process the reaper of its descendants' orphans (Linux).
    static func adopt() {
        #if os(Linux)
        _ = prctl(36 /* PR_SET_CHILD_SUBREAPER */, 1, 0, 0, 0)
        #endif
    }

    /// The parent's own children, which ``endHandedOver(keeping:)`` never
    /// ends: its session, and the children it had before its first worker.
    nonisolated(unsafe) private static var own: (session: pid_t, children: Set<pid_t>)?

    /// Notes this process's session and the children it has now (the
    /// parent, before it starts its first worker; once).
    static func noteOwn() {
        #if os(Linux)
        guard own == nil else { return }
        // Nearly always none: one system call says so, not a scan of /proc.
        var children: Set<pid_t> = []
        if hasChildren { children = Set(self.children(of: getpid()).map(\.pid)) }
        own = (getsid(0), children)
        #endif
    }

    /// Ends what workers handed over to this process, the parent: every
    /// child that is not one of `keep` (the workers still running), not in
    /// this process's session, and not one it had before its first worker
    /// (see ``noteOwn()``); and their children in turn as they are handed
    /// over.
    static func endHandedOver(keeping keep: Set<pid_t>) {
        let own = self.own
        end(keeping: keep) { child in
            guard let own else { return true }
            return child.session != own.session && !own.children.contains(child.pid)
        }
    }

    /// Ends every child of this process that is not one of `keep` (and that
    /// `isHandedOver`), and their children in turn as they are handed over.
    static func end(keeping keep: Set<pid_t>, where isHandedOver: (Child) -> Bool = { _ in true }) {
        #if os(Linux)
        let me = getpid()
        // With no children at all (the last worker is gone and left nothing
        // behind), there is nothing to look for in /proc, whose scan costs
        // milliseconds on a busy machine.
        if keep.isEmpty && !hasChildren { return }
        // Pass after pass: each child ended hands its own children over (a
        // chain of sessions, say), until none is left, for at most 2 s.
        let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let children = self.children(of: me).filter { !keep.contains($0.pid) && isHandedOver($0) }.map(\.pid)
            if children.isEmpty { return }
            for child in children {
                _ = kill(-child, SIGKILL)
                _ = kill(child, SIGKILL)
            }
            for child in children {
                var status: Int32 = 0
                _ = waitpid(child, &status, 0)
            }
        }
        #endif
    }

    /// Whether this process has a child, running or not (one system call).
    private static var hasChildren: Bool {
        var info = siginfo_t()
        return !(waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
    }

    /// Ends every descendant of this process (a worker whose parent died:
    /// what its steps started may sit in process groups of their own).
    static func endDescendants() {
        #if os(Linux)
        var found: [pid_t] = []
        var frontier = [getpid()]
        while let next = frontier.popLast() {
            let children = self.children(of: next).map(\.pid)
            found += children
            frontier += children
        }
        for pid in found {
            _ = kill(-pid, SIGKILL)
            _ = kill(pid, SIGKILL)
        }
        #endif
    }

    /// A child process, as /proc shows it.
    struct Child {
        var pid: pid_t
        /// The session it is in.
        var session: pid_t
    }

    /// The processes whose parent is `parent`, from /proc.
    private static func children(of parent: pid_t) -> [Child] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { name -> Child? in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "comm)": state, the parent's pid, the group's, the session's.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, pid_t(fields[1]) == parent, let session = pid_t(fields[3]) else { return nil }
            return Child(pid: pid, session: session)
        }
    }
}

/// File descriptors made for a child, closed on exec in every other child.
enum Descriptors {
    /// Makes a pipe hold up to 1 MiB (Linux; 64 KiB by default), so a long
    /// story's request of many megabytes goes to its worker in a sixteenth
    /// of the turns; where the system refuses (its limit on pipe pages per
    /// user), the pipe stays as it was.
    static func widen(_ descriptor: Int32) {
        #if os(Linux)
        _ = fcntl(descriptor, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        #endif
    }

    /// A pipe whose ends are closed on exec: (read, write).
    static func pipe() -> (read: Int32, write: Int32)? {
        // pipe2 is not imported; no user code runs in the parent, so no
        // other thread starts a process between pipe and fcntl.
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { return nil }
        closeOnExec(ends[0])
        closeOnExec(ends[1])
        return (ends[0], ends[1])
    }

    /// The temporary folder: `TMPDIR`, or /tmp when it is not set.
    static var temporaryFolder: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// An unlinked temporary file opened for reading and writing (and
    /// appending, unless `appending` is false), closed on exec, made in
    /// `folder` (the temporary folder when nil).
    static func temporaryFile(_ purpose: String, in folder: String? = nil, appending: Bool = true) -> Int32? {
        let folder = folder ?? temporaryFolder
        var template = Array("\(folder)/.storyrun-\(purpose)-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        closeOnExec(descriptor)
        if appending { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_APPEND) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    /// Memory shared with a child that the child cannot shrink: an
    /// anonymous file (Linux's memfd) of `size` bytes, sealed against
    /// shrinking, opened for appending and closed on exec; nil where there
    /// is none (then a temporary file does). A step that truncated a plain
    /// file under the parent's mapping of it would end the parent with
    /// SIGBUS the next time it looked at the worker.
    static func sealedMemory(_ purpose: String, size: Int) -> Int32? {
        #if os(Linux)
        typealias Create = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "memfd_create") else { return nil }
        let create = unsafeBitCast(symbol, to: Create.self)
        // MFD_CLOEXEC | MFD_ALLOW_SEALING
        let descriptor = create("storyrun-\(purpose)", 1 | 2)
        guard descriptor >= 0 else { return nil }
        // F_ADD_SEALS with F_SEAL_SHRINK | F_SEAL_SEAL, once it has its size.
        guard ftruncate(descriptor, off_t(size)) == 0, fcntl(descriptor, 1033, Int32(2 | 1)) == 0 else {
            close(descriptor)
            return nil
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_APPEND)
        return descriptor
        #else
        return nil
        #endif
    }

    /// Marks a descriptor to be closed on exec.
    static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// Makes reads from a descriptor return at once when nothing is there.
    static func nonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
}
