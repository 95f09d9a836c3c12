import MarsgenCLI
#if canImport(CMalloc)
import CMalloc
#endif

// The async entry point: `serve` and `watch` run until stopped.
@main
struct Main {
    static func main() async {
        #if canImport(CMalloc)
        // A build allocates tens of thousands of objects from every core. By default glibc
        // grows each thread's heap a few pages at a time, one mprotect call each: thousands
        // of calls, a tenth of an incremental build of a large site. Asking for 64 MB of
        // headroom per growth makes them a few dozen; untouched headroom costs no memory.
        // Set before any thread starts, as a thread's heap takes the setting when created.
        _ = mallopt(M_TOP_PAD, 64 << 20)
        #endif
        await Marsgen.main()
    }
}
