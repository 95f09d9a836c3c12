import MarsgenCLI

Marsgen.main()
