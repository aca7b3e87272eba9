import VicinityCLI
VicinityCommand.main()
