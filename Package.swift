// swift-tools-version: 6.1
import PackageDescription

// Targets are listed bottom-up: each one depends only on targets above it.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "marsgen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "marsgen", targets: ["marsgen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Foundations: no knowledge of files, HTML or each other.
        .target(name: "ListDiff", swiftSettings: strictSettings),
        .target(name: "MarsTime", swiftSettings: strictSettings),
        .target(name: "Diagnostics", swiftSettings: strictSettings),
        // What size an image file's bytes give it.
        .target(name: "Images", swiftSettings: strictSettings),
        // The search index: plain text of rendered HTML, JSON. No dependencies, no files.
        .target(name: "Search", swiftSettings: strictSettings),

        // Markdown: cmark-gfm from the system (Debian: libcmark-gfm-dev, libcmark-gfm-extensions-dev).
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]
        ),
        .target(name: "GFM", dependencies: ["CCmarkGFM", "Diagnostics", "Images"], swiftSettings: strictSettings),

        // Site configuration and content: knows files' text, never HTML templates.
        .target(
            name: "SiteConfig",
            dependencies: ["MarsTime", "Diagnostics", "Images", "Yams"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Content",
            dependencies: ["GFM", "Images", "SiteConfig", "MarsTime", "ListDiff", "Diagnostics", "Yams"],
            swiftSettings: strictSettings
        ),

        // The adapter: objects → sections of cells → pages. Knows no template engine.
        .target(
            name: "Feed",
            dependencies: ["Content", "GFM", "Search", "SiteConfig", "ListDiff", "MarsTime", "Diagnostics"],
            swiftSettings: strictSettings
        ),

        // Templates: render requests → HTML. Knows no file system layout of a site.
        .target(
            name: "Rendering",
            dependencies: ["Feed", "Content", "GFM", "Search", "SiteConfig", "Diagnostics", .product(name: "Mustache", package: "swift-mustache")],
            resources: [.embedInCode("Theme")],
            swiftSettings: strictSettings
        ),

        // Orchestration: read a site, build it, write public/ atomically.
        .target(name: "CSystemCalls"),
        .target(
            name: "Site",
            dependencies: ["CSystemCalls", "Rendering", "Feed", "Content", "GFM", "Images", "SiteConfig", "ListDiff", "MarsTime", "Diagnostics"],
            swiftSettings: strictSettings
        ),

        // Watching a site's folders for saves: inotify on Linux, polling elsewhere. Knows no site.
        .target(name: "Watch", dependencies: ["Diagnostics"], swiftSettings: strictSettings),

        // Serving a built site with live updates. Knows files and HTTP, not how a site is built.
        .target(
            name: "Server",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                "Diagnostics",
            ],
            resources: [.embedInCode("LiveScript")],
            swiftSettings: strictSettings
        ),

        // The command line only wires.
        .target(
            name: "MarsgenCLI",
            dependencies: [
                "Site", "Rendering", "Content", "SiteConfig", "MarsTime", "Diagnostics", "Watch", "Server",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // glibc's mallopt, which the executable tunes before anything allocates (Linux only).
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "marsgen",
            dependencies: ["MarsgenCLI", .target(name: "CMalloc", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSettings
        ),

        // Shared by tests and benchmarks only; not part of the product.
        .target(name: "MarsgenTesting", swiftSettings: strictSettings),
        // Figures for `make bench`; not part of the product.
        .executableTarget(name: "ListDiffBenchmark", dependencies: ["ListDiff", "MarsgenTesting"], path: "Benchmarks/ListDiffBenchmark"),
        .executableTarget(name: "SiteGenerator", dependencies: ["MarsgenTesting"], path: "Benchmarks/SiteGenerator"),
        // The fuzzer: see Fuzz/MarsgenFuzz/main.swift and `make fuzz`.
        .executableTarget(name: "MarsgenFuzz", dependencies: ["Content", "SiteConfig", "MarsTime", "Diagnostics", "MarsgenTesting"],
                          path: "Fuzz/MarsgenFuzz"),
        .executableTarget(name: "MarkdownBenchmark", dependencies: ["GFM", "Content"], path: "Benchmarks/MarkdownBenchmark"),

        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "MarsgenTesting"]),
        .testTarget(name: "MarsTimeTests", dependencies: ["MarsTime", "MarsgenTesting"]),
        .testTarget(name: "ImagesTests", dependencies: ["Images"]),
        .testTarget(name: "SearchTests", dependencies: ["Search"]),
        .testTarget(name: "ContentTests", dependencies: ["Content", "GFM", "Images", "SiteConfig", "Diagnostics", "MarsTime", "MarsgenTesting"]),
        .testTarget(name: "FeedTests", dependencies: [
            "Feed", "Rendering", "Content", "Images", "SiteConfig", "MarsTime", "MarsgenTesting", "Search", .product(name: "Mustache", package: "swift-mustache"),
        ]),
        .testTarget(name: "WatchTests", dependencies: ["Watch"]),
        .testTarget(name: "ServerTests", dependencies: ["Server", "Diagnostics"]),
        .testTarget(name: "SiteTests", dependencies: ["Site", "Content", "Rendering", "GFM", "Images", "Diagnostics", "MarsTime", "MarsgenTesting"]),
        .testTarget(
            name: "MarsgenEndToEndTests",
            dependencies: ["Site", "SiteConfig", "MarsgenCLI", "Rendering", "Diagnostics", "MarsTime", "MarsgenTesting"]
        ),
    ]
)
