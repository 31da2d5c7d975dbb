#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error, there whatever the caller closed.
enum StandardDescriptors {
    /// Opens /dev/null at each of descriptors 0, 1 and 2 that is closed
    /// (`storyrun … >&-`): otherwise the run's first pipe or file takes that
    /// number, what is printed goes into it, and a worker's channels are
    /// crossed (a run whose worker crashed waited for ever for its
    /// replacement, which read its requests from the capture file).
    static func open() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let null = Glibc.open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }
}
