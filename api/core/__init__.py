"""What the command line and the web service both do, free of HTTP and of argparse."""
