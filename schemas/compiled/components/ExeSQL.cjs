// Generated from schemas/components/ExeSQL.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/ExeSQL.schema.json","title":"ExeSQL params","description":"Runs SQL statements against a database (RAGFlow ExeSQLParam); INSERT, UPDATE and DELETE are refused. Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"sql":{"type":"string","description":"The SQL to run (statements separated by \";\"). As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"db_type":{"type":"string","description":"Database type (default mysql).","enum":["mysql","mariadb","oceanbase","postgres","mssql","trino","IBM DB2"]},"database":{"type":"string","description":"Database name (Trino: catalog.schema)."},"username":{"type":"string","description":"Database user."},"host":{"type":"string","description":"Database host."},"port":{"type":["integer","string"],"description":"Database port (> 0, default 3306)."},"password":{"type":"string","description":"Database password (optional for Trino)."},"max_records":{"type":["integer","string"],"description":"Maximum rows per statement (> 0, default 1024)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/ExeSQL.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.sql !== undefined){
let data0 = data.sql;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/sql",schemaPath:"#/properties/sql/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sql.type,parentSchema:schema31.properties.sql,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.db_type !== undefined){
let data1 = data.db_type;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/db_type",schemaPath:"#/properties/db_type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.db_type.type,parentSchema:schema31.properties.db_type,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(!(((((((data1 === "mysql") || (data1 === "mariadb")) || (data1 === "oceanbase")) || (data1 === "postgres")) || (data1 === "mssql")) || (data1 === "trino")) || (data1 === "IBM DB2"))){
const err2 = {instancePath:instancePath+"/db_type",schemaPath:"#/properties/db_type/enum",keyword:"enum",params:{allowedValues: schema31.properties.db_type.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.db_type.enum,parentSchema:schema31.properties.db_type,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.database !== undefined){
let data2 = data.database;
if(typeof data2 !== "string"){
const err3 = {instancePath:instancePath+"/database",schemaPath:"#/properties/database/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.database.type,parentSchema:schema31.properties.database,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.username !== undefined){
let data3 = data.username;
if(typeof data3 !== "string"){
const err4 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.username.type,parentSchema:schema31.properties.username,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.host !== undefined){
let data4 = data.host;
if(typeof data4 !== "string"){
const err5 = {instancePath:instancePath+"/host",schemaPath:"#/properties/host/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.host.type,parentSchema:schema31.properties.host,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.port !== undefined){
let data5 = data.port;
if((!((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5)))) && (typeof data5 !== "string")){
const err6 = {instancePath:instancePath+"/port",schemaPath:"#/properties/port/type",keyword:"type",params:{type: schema31.properties.port.type},message:"must be integer,string",schema:schema31.properties.port.type,parentSchema:schema31.properties.port,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.password !== undefined){
let data6 = data.password;
if(typeof data6 !== "string"){
const err7 = {instancePath:instancePath+"/password",schemaPath:"#/properties/password/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.password.type,parentSchema:schema31.properties.password,data:data6};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.max_records !== undefined){
let data7 = data.max_records;
if((!((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7)))) && (typeof data7 !== "string")){
const err8 = {instancePath:instancePath+"/max_records",schemaPath:"#/properties/max_records/type",keyword:"type",params:{type: schema31.properties.max_records.type},message:"must be integer,string",schema:schema31.properties.max_records.type,parentSchema:schema31.properties.max_records,data:data7};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"sql":true,"db_type":true,"database":true,"username":true,"host":true,"port":true,"password":true,"max_records":true},"dynamicProps":false,"dynamicItems":false};

