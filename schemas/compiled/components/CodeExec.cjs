// Generated from schemas/components/CodeExec.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/CodeExec.schema.json","title":"CodeExec params","description":"Runs a main function in a Python or JavaScript sandbox (RAGFlow CodeExecParam). Usable as an Agent tool and as a canvas node. Outputs: the one business output declared in outputs, content, actual_type, raw_result, attachments.","type":"object","properties":{"lang":{"type":"string","description":"Language of the script (default python).","enum":["python","python3","javascript","nodejs"]},"script":{"type":"string","description":"The code; it must define main(). The canvas arguments are passed to it."},"arguments":{"type":"object","description":"Arguments of main by name, each a reference (\"cpn@var\", \"sys.x\").","additionalProperties":{"type":["string","null"]}},"outputs":{"type":"object","description":"Declared outputs: exactly one business output {type: String|Number|Boolean|Object|Null|Any|Array<T>} besides the system ones (attachments…)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/CodeExec.schema.json" */;
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
if(data.lang !== undefined){
let data0 = data.lang;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/lang",schemaPath:"#/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.lang.type,parentSchema:schema31.properties.lang,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(!((((data0 === "python") || (data0 === "python3")) || (data0 === "javascript")) || (data0 === "nodejs"))){
const err1 = {instancePath:instancePath+"/lang",schemaPath:"#/properties/lang/enum",keyword:"enum",params:{allowedValues: schema31.properties.lang.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.lang.enum,parentSchema:schema31.properties.lang,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.script !== undefined){
let data1 = data.script;
if(typeof data1 !== "string"){
const err2 = {instancePath:instancePath+"/script",schemaPath:"#/properties/script/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.script.type,parentSchema:schema31.properties.script,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.arguments !== undefined){
let data2 = data.arguments;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key0 in data2){
let data3 = data2[key0];
if((typeof data3 !== "string") && (data3 !== null)){
const err3 = {instancePath:instancePath+"/arguments/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/arguments/additionalProperties/type",keyword:"type",params:{type: schema31.properties.arguments.additionalProperties.type},message:"must be string,null",schema:schema31.properties.arguments.additionalProperties.type,parentSchema:schema31.properties.arguments.additionalProperties,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/arguments",schemaPath:"#/properties/arguments/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.arguments.type,parentSchema:schema31.properties.arguments,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.outputs !== undefined){
let data4 = data.outputs;
if(!(data4 && typeof data4 == "object" && !Array.isArray(data4))){
const err5 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"lang":true,"script":true,"arguments":true,"outputs":true},"dynamicProps":false,"dynamicItems":false};

