# kneepoint_add_test(<name> LIBS <targets...> [GUI] [TIMEOUT <s>] [LABELS <labels...>])
#
# Adds the QtTest executable tst_<name> from tests/tst_<name>.cpp and registers it with CTest.
# Tests link library targets only; they never compile production sources again. GUI tests run on
# the offscreen platform so that they need no display. Tests labelled `unit` (engine code only: no GUI,
# no program of ours run as a child) are also built by the target kneepoint_unit_tests, which CI builds
# and runs under the address and undefined-behaviour sanitizers (preset asan-unit, docs/TESTING.md).
function(kneepoint_add_test name)
    cmake_parse_arguments(ARG "GUI" "TIMEOUT" "LIBS;LABELS;SOURCES" ${ARGN})
    set(target tst_${name})
    add_executable(${target} ${CMAKE_CURRENT_SOURCE_DIR}/tst_${name}.cpp ${ARG_SOURCES})
    target_link_libraries(${target} PRIVATE kneepoint_policy Qt6::Test ${ARG_LIBS})
    target_compile_definitions(${target} PRIVATE QT_TESTCASE_SOURCEDIR="${CMAKE_CURRENT_SOURCE_DIR}")
    add_test(NAME ${name} COMMAND ${target})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 120)
    endif()
    set(env "QT_QPA_PLATFORM=offscreen" "QT_LOGGING_RULES=kneepoint.*.debug=false")
    set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${env}")
    if(ARG_LABELS)
        set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
    endif()
    if("unit" IN_LIST ARG_LABELS)
        if(NOT TARGET kneepoint_unit_tests)
            add_custom_target(kneepoint_unit_tests)
        endif()
        add_dependencies(kneepoint_unit_tests ${target})
    endif()
endfunction()
