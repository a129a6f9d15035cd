from tocktable.cli import main

raise SystemExit(main())
