import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FileHandle {
    /// Everything until end of file, read with `read(2)` retried on EINTR. Foundation's
    /// `readDataToEndOfFile()` traps on an interrupted read ("Interrupted system call"), which a
    /// child's SIGCHLD can cause while a test waits for its output on a busy machine.
    public func readAllRetryingInterrupts() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: buffer[0..<n])
            } else if n == 0 || errno != EINTR {
                return data
            }
        }
    }
}
