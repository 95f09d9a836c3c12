/// The files `marsgen init` writes: a small working site to start from.
enum StarterSite {
    /// The files, the site's `language` being `language`.
    static func files(language: String) -> [(path: String, text: String)] {
        files.map { file in
            file.path == "marsgen.yml" ? (file.path, file.text.replacingOccurrences(of: "\nlanguage: en ", with: "\nlanguage: \(language) ")) : file
        }
    }

    static let files: [(path: String, text: String)] = [
        ("marsgen.yml", """
            title: My Mission Log
            description: Daily reports from the habitat.
            base_url: https://example.org/
            language: en        # the theme's words in en, fr, de, es or it; others through words:
            page_size: 20
            search: true        # a search page at /search/ over every entry, message and weather report
            # nav:              # links of your own in every page's navigation
            #   - title: Mission home
            #     url: https://example.org/mission/
            #   - title: First light    # or a content file: to its page, wherever its slug puts it
            #     url: content/journal/first-light.md
            mission:
              name: Ares I
              landing: 2037-02-14T09:32:00Z
              longitude: -35.8
              first_sol: 1

            """),
        ("content/crew.yml", """
            commander:
              name: Alex Reyes
              role: Commander
            engineer:
              name: Sam Okafor
              role: Flight Engineer

            """),
        ("content/journal/first-light.md", """
            ---
            title: First light
            author: commander
            sol: 2
            time: "07:30"
            tags: [landing]
            ---
            We are down, and the hab is holding pressure. The sky is the colour of **weak tea**.

            - [x] Landing
            - [ ] First EVA

            """),
        ("content/messages/habitat.md", """
            ---
            channel: habitat
            sol: 2
            ---
            ## 08:05 engineer
            Power is nominal. Panels at 94 %.

            ## 08:07 commander
            Good. Suit checks at noon.

            """),
        ("content/weather/sol-0002.md", """
            ---
            sol: 2
            temperature: -52
            high: -9
            low: -78
            sunrise: "05:51"
            sunset: "18:02"
            condition: clear
            ---
            Calm winds from the east.

            """),
        ("content/pages/about.md", """
            ---
            title: About this mission
            nav: true           # every page's navigation links here
            nav_title: About
            ---
            Who we are, where the habitat is, and how to read a sol. This page is at /about/;
            every file in content/pages/ is a page of its own.

            """),
        ("static/.gitkeep", ""),
        ("templates/.gitkeep", ""),
        ("public/.gitkeep", ""),
        (".gitignore", """
            /public/*
            !/public/.gitkeep
            .marsgen/

            """),
    ]
}
