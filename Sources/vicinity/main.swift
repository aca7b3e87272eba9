import VicinityCLI
CLI.main()
