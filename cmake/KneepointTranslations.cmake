# Translations of the desktop application, made with Debian's qt6-l10n-tools (lupdate, lrelease).
#
# kneepoint_add_translations(<target> TS_FILES <ts...> SOURCES <folders...> [PLURAL_ONLY <ts...>])
#   Compiles each .ts file into a .qm file with lrelease at build time and embeds the .qm files in
#   <target> as resources under :/i18n/ (kneepoint_zh_CN.qm, ...). Adds the target kneepoint_lupdate,
#   which refreshes the .ts files from the phrases in the source folders:
#       cmake --build <build dir> --target kneepoint_lupdate
#   PLURAL_ONLY files (the source language's) hold only the messages with plural forms (%n).
#   lupdate reads tr(), QT_TR_NOOP(), QT_TRANSLATE_NOOP(), QCoreApplication::translate() and the
#   engine's kp::phrase() (an alias of translate); the .ts files keep no source locations, so that
#   moving code does not change them.
find_program(KNEEPOINT_LUPDATE NAMES lupdate-qt6 lupdate HINTS /usr/lib/qt6/bin REQUIRED)
find_program(KNEEPOINT_LRELEASE NAMES lrelease-qt6 lrelease HINTS /usr/lib/qt6/bin REQUIRED)

set(KNEEPOINT_LUPDATE_OPTIONS -locations none -no-obsolete -tr-function-alias translate+=phrase,translate+=sentence)

function(kneepoint_add_translations target)
    cmake_parse_arguments(ARG "" "" "TS_FILES;SOURCES;PLURAL_ONLY" ${ARGN})
    set(qm_files)
    foreach(ts IN LISTS ARG_TS_FILES ARG_PLURAL_ONLY)
        get_filename_component(name ${ts} NAME_WE)
        set(qm ${CMAKE_CURRENT_BINARY_DIR}/i18n/${name}.qm)
        add_custom_command(OUTPUT ${qm}
            COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/i18n
            COMMAND ${KNEEPOINT_LRELEASE} -silent ${ts} -qm ${qm}
            DEPENDS ${ts}
            COMMENT "Compiling translation ${name}"
            VERBATIM)
        list(APPEND qm_files ${qm})
    endforeach()
    qt_add_resources(${target} kneepoint_translations
        PREFIX /i18n
        BASE ${CMAKE_CURRENT_BINARY_DIR}/i18n
        FILES ${qm_files})

    set(commands)
    foreach(ts IN LISTS ARG_TS_FILES)
        list(APPEND commands COMMAND ${KNEEPOINT_LUPDATE} -silent ${KNEEPOINT_LUPDATE_OPTIONS} ${ARG_SOURCES} -ts ${ts})
    endforeach()
    foreach(ts IN LISTS ARG_PLURAL_ONLY)
        list(APPEND commands
            COMMAND ${KNEEPOINT_LUPDATE} -silent ${KNEEPOINT_LUPDATE_OPTIONS} -pluralonly ${ARG_SOURCES} -ts ${ts})
    endforeach()
    add_custom_target(kneepoint_lupdate ${commands}
        WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
        COMMENT "Updating the translation sources from the code"
        VERBATIM)
endfunction()
