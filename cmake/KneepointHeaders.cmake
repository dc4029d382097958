# Include paths of the engine libraries: a library's headers are found by what links it, and only so.
#
# kneepoint_public_headers(<target> [HEADERS <headers...>])
#   Code includes engine headers as "<folder>/<header>.h". Rather than the whole engine/ folder, the
#   target's PUBLIC include directory is ${CMAKE_BINARY_DIR}/include/<target>/, which holds one
#   symbolic link, <folder> -> the target's source folder. A module that includes a header of one it
#   does not link (directly or through a PUBLIC dependency) fails to compile. With HEADERS, the link
#   folder holds links to those headers alone: for a folder shared by two targets (sim: the pure
#   model and the server around it).
function(kneepoint_public_headers target)
    cmake_parse_arguments(ARG "" "" "HEADERS" ${ARGN})
    cmake_path(GET CMAKE_CURRENT_SOURCE_DIR FILENAME folder)
    set(root ${CMAKE_BINARY_DIR}/include/${target})
    file(REMOVE_RECURSE ${root})
    file(MAKE_DIRECTORY ${root})
    if(ARG_HEADERS)
        file(MAKE_DIRECTORY ${root}/${folder})
        foreach(header IN LISTS ARG_HEADERS)
            file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${header} ${root}/${folder}/${header} SYMBOLIC)
        endforeach()
    else()
        file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
    endif()
    target_include_directories(${target} PUBLIC ${root})
endfunction()
