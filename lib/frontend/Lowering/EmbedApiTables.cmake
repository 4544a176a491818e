# Writes OUTPUT: one `{"name", R"(...)"},` initializer per API table in
# TABLES, so the tables are compiled into detc.
string(REPLACE "|" ";" TABLES "${TABLES}")
set(content "")
foreach(table ${TABLES})
  get_filename_component(name ${table} NAME)
  file(READ ${table} text)
  string(APPEND content "{\"${name}\", R\"DETC_API(${text})DETC_API\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp "${content}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different
                ${OUTPUT}.tmp ${OUTPUT})
