#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A reference held per thread, through a POSIX thread-specific key. It does not retain what it
/// holds: set it only for the duration of a call that keeps the value alive.
final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private var key = pthread_key_t()

    init() {
        pthread_key_create(&key, nil)
    }

    var value: Value? {
        get { pthread_getspecific(key).map { Unmanaged<Value>.fromOpaque($0).takeUnretainedValue() } }
        set { pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() }) }
    }
}
