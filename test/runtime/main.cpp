// The Catch2 main of the runtime's unit tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
