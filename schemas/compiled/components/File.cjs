// Generated from schemas/components/File.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/File.schema.json","title":"File params","description":"The entry of an ingestion pipeline (RAGFlow's File): the document a run is given. It has no params of its own.","type":"object","properties":{"timeout":{"type":"number","description":"RAGFlow's step timeout in seconds (kept, not used: a pipeline step has none in practice)."},"persist_logs":{"type":"boolean","description":"Kept from RAGFlow; nothing reads it."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/File.schema.json" */;
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
if(data.timeout !== undefined){
let data0 = data.timeout;
if(!(typeof data0 == "number")){
const err0 = {instancePath:instancePath+"/timeout",schemaPath:"#/properties/timeout/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.timeout.type,parentSchema:schema31.properties.timeout,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.persist_logs !== undefined){
let data1 = data.persist_logs;
if(typeof data1 !== "boolean"){
const err1 = {instancePath:instancePath+"/persist_logs",schemaPath:"#/properties/persist_logs/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.persist_logs.type,parentSchema:schema31.properties.persist_logs,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"timeout":true,"persist_logs":true},"dynamicProps":false,"dynamicItems":false};

