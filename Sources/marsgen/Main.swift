import MarsgenCLI

// The async entry point: `serve` and `watch` run until stopped.
@main
struct Main {
    static func main() async {
        await Marsgen.main()
    }
}
