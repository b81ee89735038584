rootProject.name = "gradle-app"
include("lib")
